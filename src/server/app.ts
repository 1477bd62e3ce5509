import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Config } from './config.ts';
import { preparePrivateDir } from './data-dir.ts';
import { redactUrl } from './http/redact.ts';
import { openDatabase } from './db/connection.ts';
import { listenForChanges } from './db/change-listener.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { Deps } from './deps.ts';
import { sessionCookieOf } from './auth/session-cookie.ts';
import { installErrorHandling } from './http/error-handler.ts';
import { installCompression } from './http/compression.ts';
import { installCors } from './http/cors.ts';
import { createRateLimiter } from './http/rate-limit.ts';
import { installSecurityHeaders } from './http/security-headers.ts';
import { requestLogger } from './http/request-logger.ts';
import { keptQueryParser } from './http/kept-queries.ts';
import { installJsonParser } from './http/json-parser.ts';
import { loadSpaIndex } from './http/spa.ts';
import type { RouteRegistry } from './http/route.ts';
import { registerModules } from './modules/index.ts';
import { contextUrl } from './modules/contexts/context-url.ts';
import { createStorage } from './storage/index.ts';
import { createVoiceProviders } from './voice/provider.ts';

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
    routeRegistry: RouteRegistry;
    /** `METHOD /path` of every route Fastify has, however registered (operations.test.ts). */
    fastifyRoutes: string[];
    /** Upload requests whose handler has not settled yet (assistants/routes.ts); a cut-off upload must not stay here. */
    openUploads: () => number;
  }
}

/** The longest request URL answered (8 KiB, as common servers and proxies allow). */
const MAX_URL_LENGTH = 8192;

export interface BuildOptions {
  /** Injectable clock (tests). */
  now?: () => Date;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
}

/**
 * A request's id unless the client sent one: a random prefix per process and a count, unique across
 * instances and restarts without drawing random bytes for every request (randomUUID was ~2.5 µs of a cached
 * GET under load, in a CPU profile).
 */
const REQUEST_ID_PREFIX = randomBytes(6).toString('base64url');
let requestCount = 0;
const newRequestId = (): string => `${REQUEST_ID_PREFIX}-${(++requestCount).toString(36)}`;

/** Builds the whole service. It never listens: main.ts opens the port, tests call app.inject(). */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const dataDirWarning = preparePrivateDir(config.dataDir);
  const handle = await openDatabase(config.databaseUrl);
  await migrateToLatest(handle);

  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Requests are logged by method, redacted URL and address only: never a header (Authorization, Cookie).
      serializers: {
        req: (req) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
      },
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie'], censor: '[redacted]' },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    childLoggerFactory: requestLogger,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : newRequestId();
    },
    bodyLimit: 2 * 1024 * 1024,
    trustProxy: config.trustProxy,
    // 550: the longest context name (255 characters, up to 127 of them "/", each %2F once re-encoded) fits one segment.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 550, querystringParser: keptQueryParser() },
    // Context names with "/" arrive as several path segments (logs-api.md §6): re-encoded into one first.
    rewriteUrl: (req) => contextUrl(req.method ?? 'GET', req.url ?? '/'),
    // Shutdown drains (main.ts): requests already sent on open connections are answered (503 once
    // closing) instead of the sockets being cut; idle keep-alive sockets are closed after a grace period.
    forceCloseConnections: false,
    // Errors raised by the router before any route runs (a malformed %-escape in the path) get the
    // same `{detail}` shape as everything else.
    frameworkErrors: (error, _req, reply) => {
      const [status, detail] =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? [414, 'A path segment is longer than 550 characters.']
          : error.code === 'FST_ERR_BAD_URL'
            ? [400, 'The request path is not a valid URL (bad percent-encoding).']
            : [400, 'Bad request.'];
      void (reply as unknown as FastifyReply).status(status).send({ detail });
    },
  });

  const base = {
    config,
    db: handle.db,
    dialect: handle.dialect,
    now: options.now ?? (() => new Date()),
    storage: createStorage(config),
    voiceProviders: createVoiceProviders(),
  };
  const deps: Deps = { ...base, rateLimiter: createRateLimiter(base as Deps) };
  app.decorate('deps', deps);
  if (dataDirWarning) app.log.warn(dataDirWarning);
  app.decorate('routeRegistry', [] as RouteRegistry);
  app.decorate('fastifyRoutes', [] as string[]);
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) app.fastifyRoutes.push(`${method} ${r.url}`);
  });
  // users and organizations notify roster_auth and roster_logs, projects roster_logs, billing_accounts
  // roster_accounts, sessions roster_sessions (the migrations named in db/change-listener.ts).
  const { auth, sessions, logs, accounts, projects } = handle.epochs;
  const stopListening =
    handle.dialect === 'postgres'
      ? await listenForChanges(
          config.databaseUrl,
          { roster_auth: [auth, sessions, accounts], roster_sessions: [sessions], roster_logs: [logs, projects], roster_accounts: [accounts] },
          app.log,
        )
      : null;
  app.addHook('onClose', async () => {
    await stopListening?.();
    await handle.close();
  });

  installJsonParser(app);
  installSecurityHeaders(app);
  // Longer addresses than any page or operation needs are refused as such, before routing (which would
  // answer them 404 or 405 depending on their shape). Callback style: no promise per request.
  app.addHook('onRequest', (req, reply, done) => {
    if (req.url.length > MAX_URL_LENGTH) reply.code(414).send({ detail: `The request URL is longer than ${MAX_URL_LENGTH} characters.` });
    else done();
  });
  await installCors(app, config.corsOrigins);

  await installCompression(app);

  const spaIndex = await loadSpaIndex(config.webDir, app.log);
  // The page says whether the browser sent a session cookie (only that it did, not whether it is valid): a tab
  // that did not send one need not ask GET /v0/sessions/current, whose 401 every signed-out visit logged as a
  // console error (src/web/main.tsx).
  const sendPage = async (req: FastifyRequest, reply: FastifyReply) => {
    const cookie = sessionCookieOf(req, config) === null ? 'no' : 'yes';
    const page = (await spaIndex!(req.url)).replace('<html', `<html data-session-cookie="${cookie}"`);
    return reply.code(200).header('Cache-Control', 'no-cache').header('Vary', 'Cookie').type('text/html; charset=utf-8').send(page);
  };

  // Before any plugin loads: encapsulated contexts copy the error handler when they are created.
  installErrorHandling(app, (req, reply) => {
    const accept = req.headers.accept ?? '';
    if (!spaIndex || (req.method !== 'GET' && req.method !== 'HEAD') || req.url.startsWith('/v0')) return undefined;
    if (!accept.includes('text/html')) return undefined;
    return sendPage(req, reply);
  });

  await registerModules(app);

  if (config.webDir && spaIndex) {
    await app.register(fastifyStatic, {
      root: config.webDir,
      prefix: '/',
      wildcard: true,
      index: false,
      // The build writes .br and .gz copies; they are sent as they are (no compression per request).
      preCompressed: true,
      // The build's own files (.vite/manifest.json, .frame/: the server's render of first screens) stay private.
      dotfiles: 'ignore',
      setHeaders: (res, filePath) => {
        res.header('Cache-Control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  if (spaIndex) app.get('/', (req, reply) => sendPage(req, reply));

  return app;
}
