import { Copy, Download, KeyRound } from 'lucide-react';
import { useId, useState } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';

/**
 * Recovery codes, shown this once: each signs in once when no other factor is at hand. The user
 * copies or downloads them and says they have kept them before going on.
 */
export function RecoveryCodesPanel({ codes, onDone, doneLabel = 'Continue' }: { codes: string[]; onDone: () => void; doneLabel?: string }) {
  const [kept, setKept] = useState(false);
  const [copied, setCopied] = useState(false);
  const checkId = useId();
  const text = `Maritime Training Academy recovery codes\nEach code works once.\n\n${codes.join('\n')}\n`;

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  }

  return (
    <section aria-labelledby={`${checkId}-title`} className="grid gap-4">
      <Alert variant="warning">
        <KeyRound aria-hidden />
        <AlertTitle id={`${checkId}-title`}>Save your recovery codes</AlertTitle>
        <AlertDescription>
          If you lose your phone or passkey, each of these codes signs you in once. They are shown only now: keep them somewhere safe.
        </AlertDescription>
      </Alert>
      <ol aria-label="Recovery codes" className="grid grid-cols-2 gap-2 rounded-md border bg-muted/40 p-4 font-mono text-base" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code} className="tracking-wider">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" onClick={copy}>
          <Copy aria-hidden /> {copied ? 'Copied' : 'Copy codes'}
        </Button>
        <Button type="button" variant="outline" onClick={download}>
          <Download aria-hidden /> Download
        </Button>
      </div>
      <p role="status" className="sr-only">
        {copied ? 'Recovery codes copied.' : ''}
      </p>
      <label htmlFor={checkId} className="flex items-center gap-2 text-sm">
        <input id={checkId} type="checkbox" className="size-4" checked={kept} onChange={(event) => setKept(event.target.checked)} />
        I have saved my recovery codes
      </label>
      <Button type="button" size="lg" className="w-full" disabled={!kept} onClick={onDone}>
        {doneLabel}
      </Button>
    </section>
  );
}
