/*
 * The account screens as one lazily loaded chunk. Each screen is small and they share most of
 * their code (forms, schemas, messages), so one chunk costs a visitor little more than the
 * screen they open, while every separately loaded screen would add its own entry (and the list of
 * files it needs) to the home page's first chunk, which has a budget (decision record 006).
 * Registration and the administrator set-up, with their larger form, are in registration-screens.ts.
 */
export { AdminLoginPage } from '@/features/auth/admin-login-page.tsx';
export { ForgotPasswordPage } from '@/features/auth/forgot-password-page.tsx';
export { LoginPage } from '@/features/auth/login-page.tsx';
export { OtpPage } from '@/features/auth/otp-page.tsx';
export { ResetPasswordPage } from '@/features/auth/reset-password-page.tsx';
