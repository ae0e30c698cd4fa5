import { Anchor } from 'lucide-react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths.ts';
import { AuthShell, authLinkClass } from '@/features/auth/auth-shell.tsx';
import { LoginForm } from '@/features/auth/login-form.tsx';
import { useSiteConfig } from '@/lib/site-config.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /login: learners (and administrators, who are sent on to the admin area). */
export function LoginPage() {
  const site = useSiteConfig();
  useDocumentTitle('Login');
  return (
    <AuthShell
      icon={Anchor}
      title={`Login to ${site.name}`}
      description="Welcome back. Sign in to continue your training."
      footer={
        <>
          Don&apos;t have an account?{' '}
          <Link to={paths.signUp} className={authLinkClass}>
            Sign Up
          </Link>
        </>
      }
    >
      <LoginForm audience="everyone" />
    </AuthShell>
  );
}
