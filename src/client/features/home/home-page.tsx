import {
  Anchor,
  ArrowRight,
  Award,
  BadgeCheck,
  Compass,
  FlaskConical,
  HardHat,
  LifeBuoy,
  type LucideIcon,
  MonitorSmartphone,
  PlaneLanding,
  ShieldAlert,
  Users,
  UtensilsCrossed,
} from 'lucide-react';
import { Link } from 'react-router-dom';
import { FEATURED_COURSES } from '../../../shared/constants.ts';
import { paths } from '@/config/paths.ts';
import { Button } from '@/components/ui/button.tsx';
import { HeroBackdrop } from '@/features/home/hero-backdrop.tsx';
import { useSiteConfig } from '@/lib/site-config.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

const REASONS: { title: string; text: string; icon: LucideIcon }[] = [
  {
    title: 'Expert Instructors',
    text: 'Learn from experienced mariners and safety professionals who have taught crews at sea and ashore.',
    icon: Users,
  },
  {
    title: 'Certified Courses',
    text: 'Our courses are recognised by the national shipping directorate and internationally, so your certificate counts wherever you sail.',
    icon: BadgeCheck,
  },
  {
    title: 'Online & Offline',
    text: 'Watch the training videos and take your test online, or join us in the classroom: whichever fits your time ashore.',
    icon: MonitorSmartphone,
  },
];

// Featured tiles are a fixed list (spec section 9); each gets a fitting picture by position.
const FEATURED_ICONS: LucideIcon[] = [FlaskConical, PlaneLanding, UtensilsCrossed, Compass, HardHat, ShieldAlert];

export function HomePage() {
  const site = useSiteConfig();
  useDocumentTitle();

  return (
    <>
      <section aria-labelledby="hero-title" className="relative isolate overflow-hidden bg-navy-950 text-white">
        <HeroBackdrop />
        <div className="relative mx-auto grid max-w-6xl items-center gap-12 px-4 pt-16 pb-28 sm:px-6 sm:pt-24 sm:pb-36 lg:grid-cols-[1.25fr_1fr]">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full border border-sea-300/30 bg-sea-300/10 px-3 py-1 text-xs font-semibold tracking-wide text-sea-200 uppercase">
              <Anchor className="size-3.5" aria-hidden />
              Maritime training &amp; certification
            </p>
            <h1 id="hero-title" className="mt-6 text-4xl leading-tight font-bold tracking-tight sm:text-5xl">
              Welcome to <span className="text-sea-300">{site.name}</span>
            </h1>
            <p className="mt-5 max-w-xl text-lg leading-relaxed text-navy-100">{site.tagline}</p>
            <div className="mt-9 flex flex-wrap gap-3">
              <Button asChild size="lg" tone="dark">
                <Link to={paths.courses}>
                  Browse Courses
                  <ArrowRight aria-hidden />
                </Link>
              </Button>
              <Button
                asChild
                size="lg"
                variant="outline"
                tone="dark"
              >
                <Link to={paths.about}>About the academy</Link>
              </Button>
            </div>
          </div>
          <HeroHighlights />
        </div>
      </section>

      <section aria-labelledby="why-title" className="mx-auto w-full max-w-6xl px-4 py-20 sm:px-6">
        <SectionHeading id="why-title" eyebrow="Why us" title="Why Choose Us" />
        <ul className="mt-12 grid gap-6 md:grid-cols-3">
          {REASONS.map(({ title, text, icon: Icon }) => (
            <li
              key={title}
              className="group rounded-2xl border border-border bg-card p-7 shadow-card transition-shadow hover:shadow-lg"
            >
              <span className="flex size-12 items-center justify-center rounded-xl bg-sea-50 text-sea-700 ring-1 ring-sea-100">
                <Icon className="size-6" aria-hidden />
              </span>
              <h3 className="mt-5 text-lg font-semibold text-navy-900">{title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="featured-title" className="bg-navy-50/70">
        <div className="mx-auto w-full max-w-6xl px-4 py-20 sm:px-6">
          <SectionHeading id="featured-title" eyebrow="Courses" title="Our featured courses" />
          <ul className="mt-12 grid grid-cols-1 gap-5 min-[480px]:grid-cols-2 lg:grid-cols-3">
            {FEATURED_COURSES.map((course, index) => {
              const Icon = FEATURED_ICONS[index % FEATURED_ICONS.length] ?? LifeBuoy;
              return (
                <li
                  key={course}
                  className="relative flex items-center gap-4 overflow-hidden rounded-xl border border-border bg-card p-5 shadow-card"
                >
                  <span
                    aria-hidden
                    className="absolute inset-y-0 left-0 w-1 bg-linear-to-b from-sea-400 to-navy-700"
                  />
                  <span className="flex size-11 shrink-0 items-center justify-center rounded-lg bg-navy-900 text-sea-300">
                    <Icon className="size-5" aria-hidden />
                  </span>
                  <span className="font-semibold text-navy-900">{course}</span>
                </li>
              );
            })}
          </ul>
          <div className="mt-10 flex justify-center">
            <Button asChild variant="outline" size="lg">
              <Link to={paths.courses}>
                See all courses
                <ArrowRight aria-hidden />
              </Link>
            </Button>
          </div>
        </div>
      </section>
    </>
  );
}

function SectionHeading({ id, eyebrow, title }: { id: string; eyebrow: string; title: string }) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className="text-sm font-semibold tracking-wider text-sea-700 uppercase">{eyebrow}</p>
      <h2 id={id} className="mt-2 text-3xl font-bold tracking-tight text-navy-900 sm:text-4xl">
        {title}
      </h2>
    </div>
  );
}

/** The hero's right-hand panel: the path from sign-up to certificate, in four steps. */
function HeroHighlights() {
  const steps = [
    { icon: Users, text: 'Register and verify your account' },
    { icon: Compass, text: 'Request enrolment in a course' },
    { icon: MonitorSmartphone, text: 'Watch the training videos' },
    { icon: Award, text: 'Pass the test, get your certificate' },
  ];
  return (
    <div className="hidden rounded-2xl border border-white/10 bg-white/5 p-6 backdrop-blur-sm lg:block">
      <p className="text-sm font-semibold text-sea-200">Your course, step by step</p>
      <ol className="mt-5 space-y-4">
        {steps.map(({ icon: Icon, text }, index) => (
          <li key={text} className="flex items-center gap-4">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-sea-300/15 text-sea-300 ring-1 ring-sea-300/30">
              <Icon className="size-5" aria-hidden />
            </span>
            <span className="text-sm text-navy-100">
              <span className="sr-only">Step {index + 1}: </span>
              {text}
            </span>
          </li>
        ))}
      </ol>
    </div>
  );
}
