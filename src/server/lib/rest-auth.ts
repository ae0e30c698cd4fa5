import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { MESSAGES } from '../../shared/messages.ts';
import type { TStaffPermission } from '../../shared/staff-roles.ts';
import { staffRefusal, type TSessionUser } from './session-user.ts';
import { AppError } from './errors.ts';

/*
 * A REST route's declared access is what enforces it (decision 045): the `access` its options'
 * `config` names is read by the REST scope before the route's input is checked or its handler
 * runs, and the handler receives the caller that access guarantees, typed. A route that declares
 * no access cannot be registered.
 */

/**
 * Who may call a route: 'signed-in' and 'admin' refuse other callers before the handler runs;
 * 'public' and 'signed link' let anyone in ('signed link' routes check their link's signature
 * themselves). An 'admin' route names the staff permission it needs (`permission`, decision 067):
 * members of staff whose role lacks it are refused too.
 */
export const ROUTE_ACCESSES = ['public', 'signed-in', 'admin', 'signed link'] as const;
export type TRouteAccess = (typeof ROUTE_ACCESSES)[number];

/** The caller a route's declared access lets through: the user on signed-in and admin routes, nobody on the others. */
export type TCallerOf<ContextConfig> = ContextConfig extends { access: 'signed-in' | 'admin' } ? TSessionUser : null;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (required on every REST route). */
    access?: TRouteAccess;
    /** The staff permission an 'admin' route needs (decision 067). */
    permission?: TStaffPermission;
  }

  // Type parameters as Fastify declares them (a merged interface must repeat them all): the
  // route's config types its caller.
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
  const access: unknown = route.config?.access;
  if (!ROUTE_ACCESSES.includes(access as TRouteAccess)) {
    throw new Error(`${[route.method].flat().join(',')} ${route.url} declares no access: give it config: { access: ${ROUTE_ACCESSES.map((name) => `'${name}'`).join(' | ')} }`);
  }
  if (access === 'admin' && !route.config?.permission) {
    throw new Error(`${[route.method].flat().join(',')} ${route.url} is a staff route without its permission: give it config: { access: 'admin', permission: ... }`);
  }
}

/** Refuses a call its route's declared access does not allow (401 without a valid token, 403 for anyone but staff whose role holds the route's permission), and hands on the caller. */
async function enforceDeclaredAccess(request: FastifyRequest, identify: TIdentify): Promise<void> {
  // Undefined only for the scope's not-found answer: every route declares one.
  const { access, permission } = request.routeOptions.config;
  if (access !== 'signed-in' && access !== 'admin') return;
  const user = await identify(request.headers.authorization);
  if (!user) throw new AppError('UNAUTHORIZED', MESSAGES.common.unauthorized);
  const refusal = access === 'admin' && permission ? staffRefusal(user, permission) : null;
  if (refusal) throw new AppError('FORBIDDEN', refusal);
  // The one place the caller is written; its type (per route, from the declaration) is what this check made true.
  (request as { caller: TSessionUser | null }).caller = user;
}

/**
 * Makes every route of the scope enforce the access it declares. Call it before the scope's routes
 * are registered, and after its other preValidation hooks: a call is refused after its body is read
 * and checked for NUL, and before its input is checked against the route's schema, so a caller
 * who may not call a route learns nothing of its input rules and answers stay as they were.
 */
export function enforceRouteAccess(scope: FastifyInstance, identify: TIdentify): void {
  scope.decorateRequest('caller', null);
  scope.addHook('onRoute', refuseUndeclaredAccess);
  scope.addHook('preValidation', async (request) => enforceDeclaredAccess(request, identify));
}
