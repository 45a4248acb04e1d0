/** The baseline of scripts/bench/http.ts: the cheapest JSON endpoint Bun can serve. */
const server = Bun.serve({
  port: Number(process.env.PORT ?? 0),
  hostname: '127.0.0.1',
  fetch: () => Response.json({ success: true, slots: ['09:00', '09:30', '10:00'], timezone: 'UTC' }),
});
console.log(server.port);
