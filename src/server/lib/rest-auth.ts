import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { MESSAGES } from '../../shared/messages.ts';
import { staffRefusal, type TSessionUser } from './session-user.ts';
import { AppError } from './errors.ts';
import { ROUTE_ACCESSES, type TRouteAccess } from './openapi.ts';

/*
 * A REST route's declared access is what enforces it (decision 045): the `access` its `doc({...})`
 * names is read by the REST scope before the handler runs, and the handler receives the caller
 * that access guarantees, typed. A route that declares no access cannot be registered.
 */

/** The caller a route's declared access lets through: the user on signed-in and admin routes, nobody on the others. */
export type TCallerOf<ContextConfig> = ContextConfig extends { openapi: { access: 'signed-in' | 'admin' } } ? TSessionUser : null;

declare module 'fastify' {
  // Type parameters as Fastify declares them (a merged interface must repeat them all): the
  // route's config, from doc(), types its caller.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider, ContextConfig, Logger, RequestType> {
    /**
     * Who calls, as the route's declared access requires: on a 'signed-in' or 'admin' route the
     * user of the bearer token (the route refuses the call before its handler otherwise), on a
     * 'public' or 'signed link' route null.
     */
    caller: TCallerOf<ContextConfig>;
  }
}

/** The user an `Authorization` header names (role, verification and approval as they are now), or null. */
export type TIdentify = (authorization: string | undefined) => Promise<TSessionUser | null>;

/** Refuses, at registration, a route that does not say who may call it: none defaults to open. */
function refuseUndeclaredAccess(route: RouteOptions): void {
  const access: unknown = route.config?.openapi?.access;
  if (!ROUTE_ACCESSES.includes(access as TRouteAccess)) {
    throw new Error(`${[route.method].flat().join(',')} ${route.url} declares no access: give it doc({ access: ${ROUTE_ACCESSES.map((name) => `'${name}'`).join(' | ')}, ... })`);
  }
  if (access === 'admin' && !route.config?.openapi?.permission) {
    throw new Error(`${[route.method].flat().join(',')} ${route.url} is a staff route without its permission: give it doc({ access: 'admin', permission: ..., ... })`);
  }
}

/** Refuses a call its route's declared access does not allow (401 without a valid token, 403 for anyone but staff whose role holds the route's permission), and hands on the caller. */
async function enforceDeclaredAccess(request: FastifyRequest, identify: TIdentify): Promise<void> {
  // Undefined only for the scope's not-found answer: every route declares one.
  const access = request.routeOptions.config.openapi?.access;
  if (access !== 'signed-in' && access !== 'admin') return;
  const user = await identify(request.headers.authorization);
  if (!user) throw new AppError('UNAUTHORIZED', MESSAGES.common.unauthorized);
  const permission = request.routeOptions.config.openapi?.permission;
  const refusal = access === 'admin' && permission ? staffRefusal(user, permission) : null;
  if (refusal) throw new AppError('FORBIDDEN', refusal);
  // The one place the caller is written; its type (per route, from the declaration) is what this check made true.
  (request as { caller: TSessionUser | null }).caller = user;
}

/**
 * Makes every route of the scope enforce the access it declares. Call it before the scope's routes
 * are registered, and after its other preHandler hooks: a call is refused where its handler's first
 * line used to refuse it (after its body is read and checked for NUL), so answers stay as they were.
 */
export function enforceRouteAccess(scope: FastifyInstance, identify: TIdentify): void {
  scope.decorateRequest('caller', null);
  scope.addHook('onRoute', refuseUndeclaredAccess);
  scope.addHook('preHandler', async (request) => enforceDeclaredAccess(request, identify));
}
