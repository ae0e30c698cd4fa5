import { Slot } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils.ts';

const cardTones = { default: 'border-border bg-card', sea: 'border-sea-100 bg-sea-50/60' } as const;

/** `tone="sea"`: a pale sea-green card for a highlighted aside. */
export function Card({ className, tone = 'default', ...props }: ComponentProps<'div'> & { tone?: keyof typeof cardTones }) {
  return (
    <div
      data-slot="card"
      className={cn('flex flex-col rounded-xl border text-card-foreground shadow-card', cardTones[tone], className)}
      {...props}
    />
  );
}

export function CardHeader({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="card-header" className={cn('flex flex-col gap-1.5 p-6 pb-0', className)} {...props} />;
}

/** An h3 by default; with asChild it styles the heading element you pass (h2, say). */
export function CardTitle({ className, asChild = false, ...props }: ComponentProps<'h3'> & { asChild?: boolean }) {
  const Comp = asChild ? Slot.Root : 'h3';
  return (
    <Comp
      data-slot="card-title"
      className={cn('text-lg leading-snug font-semibold tracking-tight text-navy-900', className)}
      {...props}
    />
  );
}

export function CardDescription({ className, ...props }: ComponentProps<'p'>) {
  return <p data-slot="card-description" className={cn('text-sm text-muted-foreground', className)} {...props} />;
}

export function CardContent({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="card-content" className={cn('p-6', className)} {...props} />;
}

export function CardFooter({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="card-footer" className={cn('flex items-center gap-3 p-6 pt-0', className)} {...props} />;
}
