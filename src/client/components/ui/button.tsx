import { type VariantProps, cva } from 'class-variance-authority';
import { Slot } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils.ts';

/*
 * cn() does not settle conflicting Tailwind classes, so no two classes here may set the same
 * property for the same state: the size sets the corners and the text size, and outline and ghost
 * take their colours from the tone (light page, dark band such as the hero and the admin bar, or
 * danger for what removes something)
 * through compoundVariants.
 */
export const buttonVariants = cva(
  'inline-flex shrink-0 items-center justify-center gap-2 whitespace-nowrap font-semibold transition-colors outline-none focus-visible:ring-2 focus-visible:ring-offset-2 disabled:pointer-events-none disabled:opacity-50 aria-disabled:pointer-events-none aria-disabled:opacity-50 [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*=size-])]:size-4',
  {
    variants: {
      variant: {
        default: 'bg-primary text-primary-foreground shadow-sm hover:bg-primary-hover',
        secondary: 'bg-secondary text-secondary-foreground hover:bg-secondary-hover',
        outline: 'border',
        ghost: '',
        destructive: 'bg-destructive text-destructive-foreground shadow-sm hover:bg-destructive-hover',
        link: 'text-sea-700 underline-offset-4 hover:underline',
      },
      /**
       * The background the button sits on. On a dark band the focus ring's gap takes the colour of
       * --dark-surface (navy-950 unless an ancestor sets it, as the navy-900 admin bar does).
       */
      tone: {
        light: 'focus-visible:ring-ring focus-visible:ring-offset-background',
        dark: 'focus-visible:ring-sea-300 focus-visible:ring-offset-[color:var(--dark-surface,var(--color-navy-950))]',
        /** An outline or ghost button that removes or withdraws something (Deactivate, Revoke, Delete), on a light page. */
        danger: 'focus-visible:ring-ring focus-visible:ring-offset-background',
      },
      size: {
        default: 'h-10 rounded-md px-4 py-2 text-sm',
        sm: 'h-8 rounded-md px-3 text-xs',
        lg: 'h-12 rounded-lg px-6 text-base',
        icon: 'size-10 rounded-md text-sm',
      },
    },
    compoundVariants: [
      { variant: 'outline', tone: 'light', class: 'border-input bg-background text-navy-900 hover:bg-navy-50' },
      { variant: 'outline', tone: 'dark', class: 'border-white/40 bg-white/5 text-white hover:bg-white/15' },
      { variant: 'ghost', tone: 'light', class: 'text-navy-900 hover:bg-navy-50' },
      { variant: 'ghost', tone: 'dark', class: 'text-white hover:bg-white/10' },
      { variant: 'outline', tone: 'danger', class: 'border-red-200 bg-background text-destructive hover:bg-red-50' },
      { variant: 'ghost', tone: 'danger', class: 'text-destructive hover:bg-red-50' },
    ],
    defaultVariants: { variant: 'default', tone: 'light', size: 'default' },
  },
);

export type ButtonProps = ComponentProps<'button'> &
  VariantProps<typeof buttonVariants> & {
    /** Render the single child (a link, say) with the button's look instead of a <button>. */
    asChild?: boolean;
  };

export function Button({ className, variant, tone, size, asChild = false, type, ...props }: ButtonProps) {
  if (asChild) {
    return <Slot.Root data-slot="button" className={cn(buttonVariants({ variant, tone, size }), className)} {...props} />;
  }
  return (
    <button
      data-slot="button"
      type={type ?? 'button'}
      className={cn(buttonVariants({ variant, tone, size }), className)}
      {...props}
    />
  );
}
