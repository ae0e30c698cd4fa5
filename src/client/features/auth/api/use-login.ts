import { trpc } from '@/lib/trpc.ts';

/** auth.login for everyone, auth.adminLogin for the administrators' /backend screen. */
export function useLogin(audience: 'everyone' | 'admin') {
  const login = trpc.auth.login.useMutation();
  const adminLogin = trpc.auth.adminLogin.useMutation();
  return audience === 'admin' ? adminLogin : login;
}
