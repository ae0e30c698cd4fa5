import { Download, Loader2, Search, ShieldCheck, ShieldAlert, ScrollText } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { ADMIN_TOAST_MS } from '../../../shared/constants.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { AUDIT_ACTIONS, auditActionLabel } from '../../../shared/audit-actions.ts';
import type { TAuditEntry, TAuditFilters } from '../../../shared/schemas/audit.ts';
import { paths } from '@/config/paths.ts';
import { AdminPage } from '@/components/layouts/admin-page.tsx';
import { adminPageHeadOf } from '@/components/layouts/admin-page-heads.ts';
import { ListEmpty, LoadError } from '@/components/lists/list-states.tsx';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { NativeSelect } from '@/components/ui/native-select.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { downloadAuditCsv, useAuditPeople, useAuditSearch, useCheckChain } from '@/features/admin-audit/api/use-audit.ts';
import { changesOf, roleLabel } from '@/features/admin-audit/audit-format.ts';
import { errorMessage } from '@/lib/api-errors.ts';
import { formatCount, formatDateTime } from '@/lib/format.ts';

const A = MESSAGES.audit;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type TDraft = { actorId: string; action: string; learnerId: string; from: string; to: string };
const EMPTY: TDraft = { actorId: '', action: '', learnerId: '', from: '', to: '' };

function filtersOf(draft: TDraft): TAuditFilters {
  const filters: TAuditFilters = {};
  if (draft.actorId) filters.actorId = draft.actorId;
  if (draft.action) filters.action = draft.action;
  if (draft.learnerId.trim()) filters.learnerId = draft.learnerId.trim();
  if (draft.from) filters.from = draft.from;
  if (draft.to) filters.to = draft.to;
  return filters;
}

/** The search form: person, action, learner, from and to. */
function AuditFilters({ draft, setDraft, onSearch, error }: { draft: TDraft; setDraft: (draft: TDraft) => void; onSearch: () => void; error: string | null }) {
  const people = useAuditPeople();
  const field = (key: keyof TDraft) => ({ value: draft[key], onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [key]: event.target.value }) });
  function submit(event: FormEvent) {
    event.preventDefault();
    onSearch();
  }
  return (
    <form noValidate onSubmit={submit} aria-label="Search the audit trail" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 lg:items-end">
      <div className="grid gap-1.5">
        <Label htmlFor="audit-person">Person</Label>
        <NativeSelect id="audit-person" {...field('actorId')} aria-busy={people.isLoading || undefined}>
          <option value="">Anyone</option>
          {(people.data ?? []).map((person) => (
            <option key={person.id} value={person.id}>
              {person.name ?? person.id}
              {person.role ? ` (${roleLabel(person.role)})` : ''}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="audit-action">Action</Label>
        <NativeSelect id="audit-action" {...field('action')}>
          <option value="">Any action</option>
          {Object.entries(AUDIT_ACTIONS).map(([action, label]) => (
            <option key={action} value={action}>
              {label}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="audit-learner">Learner id</Label>
        <Input
          id="audit-learner"
          {...field('learnerId')}
          placeholder="Any learner"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'audit-filter-error' : undefined}
        />
      </div>
      <div className="grid grid-cols-2 gap-3 sm:col-span-2 lg:col-span-1">
        <div className="grid min-w-0 gap-1.5">
          <Label htmlFor="audit-from">From</Label>
          <Input id="audit-from" type="date" {...field('from')} />
        </div>
        <div className="grid min-w-0 gap-1.5">
          <Label htmlFor="audit-to">To</Label>
          <Input id="audit-to" type="date" {...field('to')} />
        </div>
      </div>
      <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-2">
        <Button type="submit">
          <Search aria-hidden />
          Search
        </Button>
        <Button type="button" variant="ghost" onClick={() => setDraft(EMPTY)}>
          Clear
        </Button>
      </div>
      {error && (
        <p id="audit-filter-error" role="alert" className="text-sm text-destructive sm:col-span-2 lg:col-span-3">
          {error}
        </p>
      )}
    </form>
  );
}

/** Before → after, one line per field that changed. */
function Changes({ entry }: { entry: TAuditEntry }) {
  const changes = changesOf(entry.before, entry.after);
  if (changes.length === 0) return <span className="text-muted-foreground">No change recorded</span>;
  return (
    <ul className="grid gap-0.5">
      {changes.map((change, index) => (
        <li key={`${change.field}-${index}`} className="break-words">
          {change.field && <span className="text-muted-foreground">{change.field}: </span>}
          <span>{change.before}</span>
          <span aria-label=" changed to "> → </span>
          <span className="font-medium">{change.after}</span>
        </li>
      ))}
    </ul>
  );
}

/** Who acted: their name, role and address. */
function Actor({ entry }: { entry: TAuditEntry }) {
  return (
    <>
      {entry.actorName ?? 'System'}
      <span className="block text-xs text-muted-foreground">{[roleLabel(entry.actorRole), entry.address].filter(Boolean).join(' · ')}</span>
    </>
  );
}

/** What the entry is about, and the way to that learner's entries. */
function Subject({ entry, onLearner }: { entry: TAuditEntry; onLearner: (learnerId: string) => void }) {
  return (
    <>
      <span className="block">{entry.subjectType}</span>
      {entry.subjectId && <span className="block font-mono break-all text-muted-foreground">{entry.subjectId}</span>}
      {entry.learnerId && (
        <Button variant="link" size="sm" className="h-auto p-0 text-xs" onClick={() => onLearner(entry.learnerId!)}>
          This learner’s entries
        </Button>
      )}
    </>
  );
}

/** The entries as cards, on narrow screens: each reads top to bottom, nothing to scroll sideways. */
function EntryCards({ entries, onLearner }: { entries: TAuditEntry[]; onLearner: (learnerId: string) => void }) {
  return (
    <ul className="grid gap-3 lg:hidden" aria-label="Audit entries">
      {entries.map((entry) => (
        <li key={entry.seq}>
          <article aria-label={`Entry ${entry.seq}`} className="grid gap-3 rounded-xl border border-border bg-card p-4 text-sm shadow-card">
            <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
              <p className="font-semibold text-navy-900">{auditActionLabel(entry.action)}</p>
              <p className="text-xs text-muted-foreground">
                {formatDateTime(entry.at, { seconds: true })} · No. {entry.seq}
              </p>
            </div>
            <dl className="grid gap-2">
              <div>
                <dt className="text-xs font-medium text-muted-foreground">Who</dt>
                <dd className="text-navy-900">
                  <Actor entry={entry} />
                </dd>
              </div>
              <div>
                <dt className="text-xs font-medium text-muted-foreground">Subject</dt>
                <dd className="text-xs">
                  <Subject entry={entry} onLearner={onLearner} />
                </dd>
              </div>
              <div>
                <dt className="text-xs font-medium text-muted-foreground">Before → after</dt>
                <dd className="text-xs">
                  <Changes entry={entry} />
                </dd>
              </div>
            </dl>
          </article>
        </li>
      ))}
    </ul>
  );
}

/** The entries as a table, on screens wide enough for one (CSS decides, so every width gets one of the two). */
function EntriesTable({ entries, onLearner }: { entries: TAuditEntry[]; onLearner: (learnerId: string) => void }) {
  return (
    <div className="hidden lg:block">
      <Table aria-label="Audit entries">
        <TableHeader>
          <TableRow>
            <TableHead>When</TableHead>
            <TableHead>Who</TableHead>
            <TableHead>Action</TableHead>
            <TableHead>Subject</TableHead>
            <TableHead>Before → after</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody className="bg-card">
          {entries.map((entry) => (
            <TableRow key={entry.seq} className="align-top">
              <TableCell className="whitespace-nowrap">
                {formatDateTime(entry.at, { seconds: true })}
                <span className="block text-xs text-muted-foreground">No. {entry.seq}</span>
              </TableCell>
              <TableCell className="min-w-36">
                <Actor entry={entry} />
              </TableCell>
              <TableCell className="min-w-36">{auditActionLabel(entry.action)}</TableCell>
              <TableCell className="min-w-40 text-xs">
                <Subject entry={entry} onLearner={onLearner} />
              </TableCell>
              <TableCell className="min-w-56 text-xs">
                <Changes entry={entry} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

/** One search's pages: newest first, Next and Previous by the keyset cursor. */
function AuditResults({ filters, onLearner }: { filters: TAuditFilters; onLearner: (learnerId: string) => void }) {
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const page = useAuditSearch(filters, cursor);
  if (page.isError) {
    return <LoadError title={A.loadFailed} message={errorMessage(page.error, { fallback: A.loadFailed })} onRetry={() => void page.refetch()} retrying={page.isFetching} />;
  }
  if (!page.data) {
    return (
      <div className="grid gap-2" aria-busy>
        <span role="status" className="sr-only">
          Searching the audit trail…
        </span>
        {[0, 1, 2, 3].map((row) => (
          <Skeleton key={row} className="h-14 rounded-lg" />
        ))}
      </div>
    );
  }
  if (page.data.items.length === 0 && cursors.length === 1) {
    return <ListEmpty icon={ScrollText} shape="table" message="No entries match this search." hint="Widen the dates, or clear a filter." />;
  }
  const pageNumber = cursors.length;
  return (
    <div className="grid gap-4" aria-busy={page.isFetching || undefined}>
      <EntriesTable entries={page.data.items} onLearner={onLearner} />
      <EntryCards entries={page.data.items} onLearner={onLearner} />
      <nav aria-label="Pages of the audit trail" className="flex items-center justify-between gap-2">
        <Button variant="outline" disabled={pageNumber === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          Newer
        </Button>
        <span className="text-sm text-muted-foreground" aria-live="polite">
          Page {formatCount(pageNumber)}
        </span>
        <Button variant="outline" disabled={!page.data.nextCursor} onClick={() => setCursors([...cursors, page.data.nextCursor ?? undefined])}>
          Older
        </Button>
      </nav>
    </div>
  );
}

/** "Check the chain": the whole trail's hashes recomputed, and what was found. */
function ChainCheck() {
  const check = useCheckChain();
  const result = check.data;
  return (
    <div className="grid gap-3">
      <div>
        <Button variant="outline" onClick={() => check.mutate()} disabled={check.isPending} aria-busy={check.isPending || undefined}>
          {check.isPending ? <Loader2 className="animate-spin" aria-hidden /> : <ShieldCheck aria-hidden />}
          Check the chain
        </Button>
      </div>
      <div aria-live="polite">
        {check.isError && (
          <Alert variant="destructive">
            <AlertTitle>{A.checkFailed}</AlertTitle>
            <AlertDescription>{errorMessage(check.error, { fallback: A.checkFailed })}</AlertDescription>
          </Alert>
        )}
        {result && !result.brokenAt && (
          <Alert>
            <ShieldCheck aria-hidden />
            <AlertTitle>{A.chainWhole(result.entries)}</AlertTitle>
            <AlertDescription>Checked {formatDateTime(result.checkedAt, { seconds: true })}.</AlertDescription>
          </Alert>
        )}
        {result?.brokenAt && (
          <Alert variant="destructive">
            <ShieldAlert aria-hidden />
            <AlertTitle>{A.chainBroken(result.brokenAt.seq, result.brokenAt.reason)}</AlertTitle>
            <AlertDescription>
              {formatCount(result.entries)} entries read. Checked {formatDateTime(result.checkedAt, { seconds: true })}.
            </AlertDescription>
          </Alert>
        )}
      </div>
    </div>
  );
}

/**
 * /admin-dashboard/audit-trail: every staff action, newest first, searched by person, action,
 * learner and days; the search as CSV; and the check that no entry was changed or removed.
 */
export function AuditTrailPage() {
  const navigate = useNavigate();
  const [draft, setDraft] = useState<TDraft>(EMPTY);
  const [filters, setFilters] = useState<TAuditFilters>({});
  const [error, setError] = useState<string | null>(null);
  const [downloading, setDownloading] = useState(false);

  function search(next: TDraft = draft) {
    if (next.learnerId.trim() && !UUID.test(next.learnerId.trim())) return setError('A learner id is the id shown on an entry, e.g. 3f2a…; leave it empty for any learner.');
    if (next.from && next.to && next.from > next.to) return setError(A.rangeOrder);
    setError(null);
    setFilters(filtersOf(next));
  }

  function showLearner(learnerId: string) {
    const next = { ...draft, learnerId };
    setDraft(next);
    search(next);
  }

  async function download() {
    setDownloading(true);
    const outcome = await downloadAuditCsv(filters);
    setDownloading(false);
    if (outcome.outcome === 'saved') toast.success('Audit trail downloaded.', { duration: ADMIN_TOAST_MS, description: outcome.fileName });
    else if (outcome.outcome === 'unauthorized') navigate(paths.adminLogin);
    else toast.error(outcome.message ?? 'The audit trail could not be downloaded. Please try again.', { duration: ADMIN_TOAST_MS });
  }

  return (
    <AdminPage {...adminPageHeadOf(paths.admin.audit)}>
      <Card className="mb-6">
        <CardContent className="p-4 sm:p-6">
          <AuditFilters draft={draft} setDraft={setDraft} onSearch={() => search()} error={error} />
        </CardContent>
      </Card>
      <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
        <ChainCheck />
        <Button variant="outline" onClick={() => void download()} disabled={downloading} aria-busy={downloading || undefined}>
          {downloading ? <Loader2 className="animate-spin" aria-hidden /> : <Download aria-hidden />}
          Download CSV
        </Button>
      </div>
      <AuditResults key={JSON.stringify(filters)} filters={filters} onLearner={showLearner} />
    </AdminPage>
  );
}
