import type { TVideoSource } from '../../../shared/schemas/training.ts';
import { type TConnectionHints, type TQualityPreference, chooseSource, prefersLowData } from '@/features/training/quality.ts';
import { cn } from '@/lib/utils.ts';

type QualityChoiceProps = {
  sources: readonly TVideoSource[];
  preference: TQualityPreference;
  connection: TConnectionHints | undefined;
  onChange: (preference: TQualityPreference) => void;
};

function Option({ checked, label, onSelect, value }: { checked: boolean; label: string; value: string; onSelect: () => void }) {
  return (
    <label
      className={cn(
        'relative flex cursor-pointer items-center rounded-md px-3 py-1.5 text-sm font-medium transition-colors',
        'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring/60',
        checked ? 'bg-navy-900 text-white' : 'text-navy-900 hover:bg-navy-50',
      )}
    >
      <input type="radio" name="training-quality" value={value} checked={checked} onChange={onSelect} className="sr-only" />
      {label}
    </label>
  );
}

/**
 * The picture size: Auto (the largest, or 360p on a slow link or with data saver on) or one of the
 * part's sizes. Radio buttons, so the arrow keys move between them.
 */
export function QualityChoice({ sources, preference, connection, onChange }: QualityChoiceProps) {
  const heights = [...new Set(sources.map((source) => source.height))].sort((a, b) => b - a);
  const auto = chooseSource(sources, 'auto', connection);
  if (heights.length <= 1) {
    return heights[0] ? <p className="text-sm text-muted-foreground">Picture: {heights[0]}p</p> : null;
  }
  const autoLabel = `Auto (${auto?.height ?? ''}p${prefersLowData(connection) ? ', saving data' : ''})`;
  return (
    <fieldset className="flex flex-wrap items-center gap-2">
      <legend className="float-left mr-1 text-sm text-muted-foreground">Picture</legend>
      <div className="flex flex-wrap gap-1 rounded-lg border border-border bg-background p-1">
        <Option value="auto" label={autoLabel} checked={preference === 'auto'} onSelect={() => onChange('auto')} />
        {heights.map((height) => (
          <Option key={height} value={String(height)} label={`${height}p`} checked={preference === height} onSelect={() => onChange(height)} />
        ))}
      </div>
    </fieldset>
  );
}
