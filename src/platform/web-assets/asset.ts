/** One built browser bundle, as scripts/build-web.ts embeds it in src/platform/web-assets/generated.ts. */
export interface WebAsset {
  /** the path it is served at, such as /svc-widget.min.js */
  path: string;
  contentType: string;
  body: string;
  /** a strong ETag from the content hash, quotes included */
  etag: string;
  /** size of the gzip-compressed body, bytes (the widget's budget is checked on it) */
  gzipBytes: number;
}
