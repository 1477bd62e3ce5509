// The reference for `npm run bench`: a bare Fastify route returning a constant, on the same machine.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const body = { status: 'ok' };
app.get('/', async () => body);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('reference ready');
