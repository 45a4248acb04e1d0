// The types of generated.ts, which `npm run build:web` writes (it is not committed): this stub lets the type
// check pass on a fresh clone before any build.
import type { WebAsset } from './asset.ts';

export declare const BUILD: { inputsHash: string; inputs: string[] };
export declare const WEB_ASSETS: WebAsset[];
