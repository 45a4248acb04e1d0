/**
 * `bun scripts/wordpress-env.ts`: a real WordPress with the svc-booking plugin (from `npm run plugin:zip`) beside
 * a real svc, as the WordPress tests use them, for trying the plugin by hand. Prints the addresses, the log-ins
 * and a fresh pairing code; Ctrl-C stops everything and removes the temp directory.
 * Needs Debian's wordpress, php-cli, php-mysql and mariadb-server (what .ci/run installs).
 */
import { ADMIN, ensurePluginZip, SLUG, startWordPressEnv, SUBSCRIBER, wordpressAvailable } from '../tests/wordpress/wordpress-env.ts';

if (!wordpressAvailable()) {
  console.error('needs Debian packages: apt-get install wordpress php-cli php-mysql mariadb-server');
  process.exit(1);
}
await ensurePluginZip();
const env = await startWordPressEnv();
console.log(`WordPress  ${env.wpUrl}/wp-admin/  (${ADMIN.login} / ${ADMIN.password}; ${SUBSCRIBER.login} / ${SUBSCRIBER.password})
svc        ${env.appUrl}  (workspace ${SLUG}, API key ${env.apiKey})
settings   ${env.wpUrl}/wp-admin/options-general.php?page=svc-booking
pairing    ${await env.pairingCode()}
Ctrl-C stops and cleans up.`);
const stop = async () => {
  await env.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
await new Promise(() => undefined);
