import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { onDemand, useOnDemand } from '@/lib/on-demand.ts';

type TPanelModule = { Panel: () => React.JSX.Element };
const panelModule: TPanelModule = { Panel: () => <p>The panel</p> };

/** A loader whose answers the test gives: each call waits for the next `answer`. */
function scriptedLoader() {
  const calls: Array<{ resolve: (module: TPanelModule) => void; reject: (error: Error) => void }> = [];
  const load = vi.fn(() => new Promise<TPanelModule>((resolve, reject) => calls.push({ resolve, reject })));
  return { load, calls };
}

function Opener({ code, prefetch = false }: { code: ReturnType<typeof onDemand<TPanelModule>>; prefetch?: boolean }) {
  const [open, setOpen] = useState(false);
  const [failures, setFailures] = useState(0);
  const module = useOnDemand(code, open, () => {
    setFailures((count) => count + 1);
    setOpen(false);
  }, { prefetchIf: () => prefetch });
  return (
    <>
      <button onClick={() => setOpen(true)}>Open</button>
      {failures > 0 && <p role="alert">Failed {failures}</p>}
      {open && module && <module.Panel />}
    </>
  );
}

describe('code on demand', () => {
  it('is fetched when first wanted, once however often it is asked for, and kept', async () => {
    const { load, calls } = scriptedLoader();
    const code = onDemand(load);
    render(<Opener code={code} />);
    expect(load).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(load).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('The panel')).toBeNull();
    await act(async () => calls[0]!.resolve(panelModule));
    expect(screen.getByText('The panel')).toBeTruthy();

    // A second user of the same code has it at once.
    render(<Opener code={code} />);
    await userEvent.click(screen.getAllByRole('button', { name: 'Open' })[1]!);
    expect(screen.getAllByText('The panel')).toHaveLength(2);
    expect(load).toHaveBeenCalledTimes(1);
    expect(code.get()).toBe(panelModule);
  });

  it('tells the caller when a wanted fetch fails, and the next time it is wanted fetches again', async () => {
    const { load, calls } = scriptedLoader();
    render(<Opener code={onDemand(load)} />);

    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    await act(async () => calls[0]!.reject(new TypeError('Failed to fetch dynamically imported module')));
    expect(screen.getByRole('alert').textContent).toBe('Failed 1');
    expect(screen.queryByText('The panel')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(load).toHaveBeenCalledTimes(2);
    await act(async () => calls[1]!.resolve(panelModule));
    expect(screen.getByText('The panel')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Failed 1');
  });

  it('is fetched when the browser is idle only where the caller says it may be needed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'requestIdleCallback'] });
    try {
      const unneeded = scriptedLoader();
      render(<Opener code={onDemand(unneeded.load)} prefetch={false} />);
      const likely = scriptedLoader();
      render(<Opener code={onDemand(likely.load)} prefetch />);
      await act(async () => vi.runAllTimers());
      expect(unneeded.load).not.toHaveBeenCalled();
      expect(likely.load).toHaveBeenCalledTimes(1);
      // A failed prefetch says nothing: nobody asked for it.
      await act(async () => likely.calls[0]!.reject(new TypeError('Failed to fetch')));
      expect(screen.queryByRole('alert')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
