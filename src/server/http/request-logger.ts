import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger.js';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogArgs = Parameters<FastifyBaseLogger['info']>;
/** Fastify's logger is pino, which answers whether a level is enabled. */
type PinoLogger = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

/**
 * A request's logger (`req.log`), made the first time the request logs at an enabled level. Fastify makes a
 * pino child with the request's id for every request, which serializes its bindings (`{"reqId":…}`) there
 * and then: ~5 % of a cached GET /v0/user/basic-info's CPU in a profile, for a logger that at `warn` (or
 * above) almost no request uses. The lines written are the child's own, so they are the same as before.
 */
class RequestLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;
  constructor(
    private readonly parent: PinoLogger,
    private readonly bindings: Bindings,
  ) {}

  private get made(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings));
  }

  private log(level: Level, args: LogArgs): void {
    if (this.#child !== undefined || this.parent.isLevelEnabled(level)) (this.made[level] as (...a: LogArgs) => void)(...args);
  }

  get level(): string {
    return this.#child?.level ?? this.parent.level;
  }
  set level(level: string) {
    this.made.level = level;
  }

  fatal(...args: LogArgs): void {
    this.log('fatal', args);
  }
  error(...args: LogArgs): void {
    this.log('error', args);
  }
  warn(...args: LogArgs): void {
    this.log('warn', args);
  }
  info(...args: LogArgs): void {
    this.log('info', args);
  }
  debug(...args: LogArgs): void {
    this.log('debug', args);
  }
  trace(...args: LogArgs): void {
    this.log('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.made.child(bindings, options);
  }
}

/**
 * Fastify's `childLoggerFactory`: a lazy logger per request, unless the route sets a level or serializers
 * of its own (none does today), which only a real child applies.
 */
export function requestLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  if (options.level !== undefined || options.serializers !== undefined) return logger.child(bindings, options);
  return new RequestLogger(logger as PinoLogger, bindings);
}
