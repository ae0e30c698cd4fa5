import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { constants as zlibConstants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RouteOptions } from 'fastify';
import { CATALOGUE_DATA_ID, TRPC_MAX_BATCH_SIZE } from '../shared/constants.ts';
import { MESSAGES } from '../shared/messages.ts';
import { restApi } from './api.ts';
import type { AppDeps } from './deps.ts';
import { precompressed, variantFor, type TPrecompressed } from './lib/content-encoding.ts';
import { drainOnClose } from './lib/draining.ts';
import { AppError, isAppError } from './lib/errors.ts';
import { sendError } from './lib/http-errors.ts';
import { requestLogOptions } from './lib/logger.ts';
import { escapeMarkup } from './lib/markup.ts';
import { securityHeadersFor } from './lib/security-headers.ts';
import { appRouter, type AppRouter } from './router.ts';
import { siteCrawlers } from './modules/site/site.crawlers.ts';
import { webManifestRoute } from './web-manifest.ts';
import { certificateFiles } from './modules/certificates/certificates.rest.ts';
import { getCatalogue, type TCatalogue } from './modules/courses/catalogue.service.ts';
import type { TCourse } from '../shared/schemas/course.ts';
import type { TVisitorView } from '../shared/prerender.ts';
import {
  codeLines,
  jsonForScript,
  loadClientCode,
  loadIndexHtml,
  loadStylesheets,
  loadPrerenderer,
  pageCode,
  withHeadLines,
  withFrame,
  withVisitorView,
  type TPrerenderer,
} from './spa.ts';
import { createContextFactory } from './trpc/context.ts';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
const READY_TIMEOUT_MS = 2000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    work,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms).unref()),
  ]);
}

/** The pictures of the first cards, seen without scrolling on a phone or a wide screen. */
const FIRST_PICTURES = 2;

function acceptsHtml(accept: string | undefined): boolean {
  return accept === undefined || accept.includes('text/html') || accept.includes('*/*');
}

/** A hop count trusts that many proxies nearest the server; addresses and ranges go as they are. */
function trustedProxies(setting: AppDeps['env']['TRUST_PROXY']) {
  return typeof setting === 'number' ? (_address: string, hop: number) => hop < setting : setting;
}

export type TBuildOptions = {
  /** Told of every route as it is added (the authorization matrix and its checks list them). */
  onRoute?: (route: RouteOptions) => void;
};

/** Builds the whole HTTP application on the given dependencies; it does not listen. */
export async function buildApp(deps: AppDeps, options: TBuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: deps.env.BODY_LIMIT_BYTES,
    trustProxy: trustedProxies(deps.env.TRUST_PROXY),
    routerOptions: { maxParamLength: 5000 },
    requestIdHeader: false,
    // The drain answers new requests itself (drainOnClose); what still runs at its end is cut.
    return503OnClosing: false,
    forceCloseConnections: true,
    ...requestLogOptions(deps.logger),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);

  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(securityHeadersFor(request.url));
    reply.header('x-request-id', request.id);
    done();
  });

  drainOnClose(app);
  // request.cookies and reply.setCookie (the browser's refresh cookie, the stream pass).
  await app.register(fastifyCookie);
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply));
  // The API's JSON reaches the browser compressed too, not only the static files: brotli at a
  // quality cheap enough to run on every answer, else gzip; small answers go as they are.
  await app.register(fastifyCompress, {
    threshold: 512,
    encodings: ['br', 'gzip'],
    customTypes: /\bjson\b/,
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } },
    zlibOptions: { level: 6 },
    // Request bodies are taken as they come, never inflated here.
    globalDecompression: false,
  });
  // tRPC answers with a fetch Response of unknown length: its JSON, read, is compressed as the
  // others are (the plugin would pipe even a small one through a stream). Anything else streams.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!(payload instanceof Response) || !/\bjson\b/.test(payload.headers.get('content-type') ?? '')) return done(null, payload);
    reply.code(payload.status);
    payload.headers.forEach((value, name) => void (name === 'content-length' || reply.header(name, value)));
    payload.arrayBuffer().then((body) => done(null, Buffer.from(body)), done);
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await withTimeout(Promise.all([deps.database.ping(), deps.jobs.ping()]), READY_TIMEOUT_MS);
      return { status: 'ready', database: deps.database.kind, jobs: deps.jobs.kind };
    } catch (err) {
      deps.logger.warn({ err }, 'not ready');
      return reply.status(503).send({ status: 'unavailable', message: MESSAGES.common.shuttingDown });
    }
  });

  // Procedures take JSON only (uploads go to the REST routes). The adapter hands any other body
  // to tRPC as the raw request, which it cannot read: a form is refused here, as /api refuses it.
  app.addHook('onRequest', async (request) => {
    const type = request.headers['content-type']?.toLowerCase() ?? '';
    if (request.url.startsWith('/trpc/') && (type.startsWith('multipart/') || type.startsWith('application/x-www-form-urlencoded'))) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', MESSAGES.common.unsupportedMediaType);
    }
  });

  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      // Each procedure counts against the limits on its own; the cap bounds what one request can ask.
      maxBatchSize: TRPC_MAX_BATCH_SIZE,
      createContext: createContextFactory(deps),
      onError({ error, path }) {
        if (error.code === 'INTERNAL_SERVER_ERROR') deps.logger.error({ err: error, path }, 'tRPC procedure failed');
      },
      // A throttled call says when to try again, as the REST answers do.
      responseMeta({ errors }) {
        const waits = errors.map((error) => (isAppError(error.cause) ? error.cause.retryAfterSeconds : undefined));
        const retryAfter = Math.max(0, ...waits.filter((wait): wait is number => wait !== undefined));
        return retryAfter > 0 ? { headers: { 'retry-after': String(retryAfter) } } : {};
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
  });

  await app.register(restApi, { prefix: '/api', deps });
  await app.register(siteCrawlers, { deps });
  await app.register(webManifestRoute, { site: deps.site });
  // The spec's client opens a certificate at the site root: /certificates/{filename}.
  await app.register(certificateFiles, { deps });

  const indexText = loadIndexHtml(deps.clientDir, deps.site);
  const indexHtml = indexText === undefined ? undefined : precompressed(indexText);
  const prerenderer = indexText === undefined ? undefined : await loadPrerenderer(deps.clientDir, deps.logger);
  const pageFor = indexText === undefined ? undefined : clientPages(deps, indexText, prerenderer);
  if (deps.clientDir && indexHtml) {
    await app.register(fastifyStatic, {
      root: deps.clientDir,
      index: false,
      wildcard: false,
      decorateReply: false,
      // .vite/manifest.json is the server's to read, not the browser's.
      dotfiles: 'ignore',
      // The build writes .br and .gz copies beside each text file (vite.config.ts).
      preCompressed: true,
      setHeaders(res, filePath) {
        // Vite puts a content hash in every asset's name, so those never change. The service
        // worker's script is checked on every visit, so a new build's worker is found at once
        // (browsers cap its HTTP caching at a day anyway).
        res.header(
          'cache-control',
          filePath.includes('/assets/') ? 'public, max-age=31536000, immutable' : filePath.endsWith(`${path.sep}sw.js`) ? 'no-cache' : 'public, max-age=3600',
        );
      },
    });
  } else {
    deps.logger.warn({ clientDir: deps.clientDir }, 'client not built: only the API is served (run npm run build)');
  }

  // Any other GET that wants a page is a client route (deep links such as /training/123).
  app.setNotFoundHandler(async (request, reply) => {
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !request.url.startsWith('/api/') &&
      !request.url.startsWith('/trpc/') &&
      acceptsHtml(request.headers.accept);
    if (wantsPage && pageFor) {
      const page = await pageFor(new URL(request.url, 'http://page').pathname);
      const { encoding, bytes } = variantFor(page, request.headers['accept-encoding']);
      if (encoding) reply.header('content-encoding', encoding);
      return reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding').type('text/html; charset=utf-8').send(bytes);
    }
    return reply.status(404).send({ message: MESSAGES.common.routeNotFound });
  });

  return app;
}

/**
 * The page for a client route: index.html with the entry's script and stylesheet and the route's
 * files preloaded, as the build's manifest lists them (they download with the entry, not after
 * it), and on /courses the catalogue itself and its first pictures, so the cards need no request
 * of their own (decision 020). The public pages carry a visitor's view of
 * the screen, rendered here from the client's own components (decision 026), so they paint before
 * their code arrives. Made once per route (per catalogue version on /courses) and kept compressed.
 */
function clientPages(deps: AppDeps, indexText: string, prerenderer: TPrerenderer | undefined): (pathname: string) => Promise<TPrecompressed> {
  const code = loadClientCode(deps.clientDir);
  if (!code) deps.logger.warn({ clientDir: deps.clientDir }, 'the client build has no manifest: pages are sent without their code');
  if (code?.unplaced.length) deps.logger.warn({ routes: code.unplaced }, 'the client build names no file for these routes: their pages preload nothing');
  const stylesheets = loadStylesheets(deps.clientDir, code);
  const plain = precompressed(code ? withHeadLines(indexText, codeLines(pageCode(code))) : indexText);
  const byPattern = new Map<string, Promise<TPrecompressed>>();
  // The visitor's view of a page, or undefined (no renderer, or the render failed: the page then
  // comes as before, and the browser renders it).
  const visitorView = async (pattern: string, catalogue?: TCourse[]): Promise<TVisitorView | undefined> => {
    if (!prerenderer?.paths.includes(pattern)) return undefined;
    try {
      return await prerenderer.render(pattern, { site: deps.site, catalogue });
    } catch (error) {
      deps.logger.error({ err: error, pattern }, 'the server could not render the page; it is sent for the browser to render');
      return undefined;
    }
  };
  // The frame of a signed-in page, or undefined (none for this page, no renderer, or it failed).
  const signedInFrame = (pattern: string): string | undefined => {
    try {
      return prerenderer?.frame(pattern, { site: deps.site });
    } catch (error) {
      deps.logger.error({ err: error, pattern }, 'the server could not draw the frame of the page; it is sent for the browser to render');
      return undefined;
    }
  };
  const catalogueViews = new WeakMap<TCatalogue, Promise<TVisitorView | undefined>>();
  return async (pathname) => {
    // The home page's code is all in the entry: it has nothing to preload, but a view to render.
    const route = code?.match(pathname);
    if (!code || !route) return plain;
    const routeCode = pageCode(code, route.files);
    if (route.pattern === '/courses') {
      const catalogue = await getCatalogue(deps);
      let view = catalogueViews.get(catalogue);
      if (!view) catalogueViews.set(catalogue, (view = visitorView(route.pattern, catalogue.courses)));
      const markup = await view;
      const page = () =>
        precompressed(
          withVisitorView(
            withHeadLines(indexText, [
              ...catalogue.courses
                .slice(0, FIRST_PICTURES)
                .flatMap((course) => (course.image ? [`<link rel="preload" as="image" href="${escapeMarkup(course.image.url)}" fetchpriority="high">`] : [])),
              `<script id="${CATALOGUE_DATA_ID}" type="application/json">${jsonForScript(catalogue.courses)}</script>`,
            ]),
            markup,
            routeCode,
            stylesheets,
          ),
        );
      let made: TPrecompressed | undefined;
      const part = (key: keyof TPrecompressed) => catalogue.memo(`page:${key}`, () => (made ??= page())[key]);
      return { plain: part('plain'), br: part('br'), gzip: part('gzip') };
    }
    let cached = byPattern.get(route.pattern);
    if (!cached) {
      const pattern = route.pattern;
      cached = visitorView(pattern).then((markup) =>
        precompressed(markup === undefined ? withFrame(indexText, signedInFrame(pattern), routeCode, stylesheets) : withVisitorView(indexText, markup, routeCode, stylesheets)),
      );
      byPattern.set(pattern, cached);
    }
    return cached;
  };
}
