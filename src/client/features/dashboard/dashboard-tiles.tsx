import { BookOpen, ChevronRight, FileBadge, type LucideIcon, Settings, ShieldCheck, UserRound } from 'lucide-react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths.ts';

type TTile = { title: string; text: string; icon: LucideIcon; to?: string };

/** The learner dashboard's four tiles (spec section 2). Settings has no page yet, so it is not a link. */
const TILES: readonly TTile[] = [
  { title: 'Users', text: 'Your profile and documents', icon: UserRound, to: paths.profile },
  { title: 'Courses', text: 'Your enrolled courses and training', icon: BookOpen, to: paths.userCourses },
  { title: 'Reports', text: 'Certificates of completed courses', icon: FileBadge, to: paths.certificateReport },
  { title: 'Settings', text: 'Nothing to set up yet', icon: Settings },
];

const tileClass = 'flex h-full items-center gap-4 rounded-xl border border-border p-5';

function TileBody({ tile }: { tile: TTile }) {
  return (
    <>
      <span className="flex size-12 shrink-0 items-center justify-center rounded-lg bg-navy-900 text-sea-300">
        <tile.icon className="size-6" aria-hidden />
      </span>
      <span className="min-w-0">
        <span className="block text-lg font-semibold text-navy-900">{tile.title}</span>
        <span className="block text-sm text-muted-foreground">{tile.text}</span>
      </span>
    </>
  );
}

export function DashboardTiles() {
  return (
    <>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {TILES.map((tile) => (
          <li key={tile.title}>
            {tile.to ? (
              <Link
                to={tile.to}
                className={`${tileClass} group bg-card shadow-card transition-colors outline-none hover:border-sea-300 hover:bg-sea-50/60 focus-visible:ring-2 focus-visible:ring-ring`}
              >
                <TileBody tile={tile} />
                <ChevronRight
                  className="ml-auto size-5 shrink-0 text-muted-foreground transition-transform group-hover:translate-x-0.5"
                  aria-hidden
                />
              </Link>
            ) : (
              // Told apart from the links by its flat, dashed look: dimming it would put its text below AA contrast.
              <div className={`${tileClass} border-dashed bg-muted`}>
                <TileBody tile={tile} />
              </div>
            )}
          </li>
        ))}
      </ul>
      {/* The spec's Reports tile keeps its page; every certificate's validity and links are one step beside it. */}
      <Link
        to={paths.myCertificates}
        className="mt-4 flex items-center gap-3 rounded-xl border border-border bg-card px-5 py-4 shadow-card transition-colors outline-none hover:border-sea-300 hover:bg-sea-50/60 focus-visible:ring-2 focus-visible:ring-ring group"
      >
        <ShieldCheck className="size-5 shrink-0 text-sea-700" aria-hidden />
        <span className="min-w-0">
          <span className="block font-semibold text-navy-900">My certificates</span>
          <span className="block text-sm text-muted-foreground">Validity, reminders before expiry, downloads and verification links to share</span>
        </span>
        <ChevronRight className="ml-auto size-5 shrink-0 text-muted-foreground transition-transform group-hover:translate-x-0.5" aria-hidden />
      </Link>
    </>
  );
}
