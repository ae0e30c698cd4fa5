import { AlertTriangle, CheckCircle2, Hourglass, Loader2 } from 'lucide-react';
import type { TAdminVideo } from '../../../shared/schemas/training.ts';
import { Badge } from '@/components/ui/badge.tsx';

/** A part's state in words: Pending, Processing n%, Ready or Failed. */
export function partStatusText(video: Pick<TAdminVideo, 'status' | 'progressPercent'>): string {
  switch (video.status) {
    case 'pending':
      return 'Pending';
    case 'processing':
      return `Processing ${video.progressPercent}%`;
    case 'ready':
      return 'Ready';
    case 'failed':
      return 'Failed';
  }
}

/** The chip beside a part: where the transcoder is with it. */
export function PartStatusBadge({ video }: { video: Pick<TAdminVideo, 'status' | 'progressPercent'> }) {
  const text = partStatusText(video);
  switch (video.status) {
    case 'pending':
      return (
        <Badge variant="outline">
          <Hourglass aria-hidden />
          {text}
        </Badge>
      );
    case 'processing':
      return (
        <Badge variant="warning">
          <Loader2 className="animate-spin motion-reduce:animate-none" aria-hidden />
          {text}
        </Badge>
      );
    case 'ready':
      return (
        <Badge variant="success">
          <CheckCircle2 aria-hidden />
          {text}
        </Badge>
      );
    case 'failed':
      return (
        <Badge variant="destructive">
          <AlertTriangle aria-hidden />
          {text}
        </Badge>
      );
  }
}
