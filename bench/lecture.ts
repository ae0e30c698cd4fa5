import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const BOLD = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

const SLIDES = [
  'Fire Prevention on Board',
  'Classes of Fire and Extinguishers',
  'Fixed CO2 Systems - Release Procedure',
  'Muster Stations and Alarm Signals',
  'Breathing Apparatus - Donning Checks',
  'Enclosed Space Entry Permit',
];
/** A new slide this often, as a lecturer moves through a deck. */
export const SLIDE_SECONDS = 20;

/**
 * A stand-in for an academy's training video, made by ffmpeg so nothing is committed: 1280×720
 * slides (a 44 px title, five 28 px bullets, a 24 px footer) that change every SLIDE_SECONDS, a
 * presenter's window (320×240, moving picture with a camera's grain changing every frame) and a
 * speech-like sound (pink noise swelling and falling at syllable pace over a low voice tone), in
 * stereo as a microphone's recording comes. Encoded near losslessly, as an upload from a screen
 * recorder would be, so the transcode sees the picture, not the generator's artefacts.
 */
export async function makeLecture(dir: string, name: string, seconds: number): Promise<string> {
  const file = path.join(dir, name);
  const cycle = SLIDES.length * SLIDE_SECONDS;
  const slides = SLIDES.flatMap((title, i) => {
    const shown = `enable='between(mod(t\\,${cycle}),${i * SLIDE_SECONDS},${(i + 1) * SLIDE_SECONDS})'`;
    return [
      `drawtext=fontfile=${BOLD}:fontsize=44:fontcolor=0x0B2545:x=60:y=50:text='${title}':${shown}`,
      ...[1, 2, 3, 4, 5].map(
        (b) => `drawtext=fontfile=${FONT}:fontsize=28:fontcolor=0x222222:x=80:y=${140 + b * 60}:text='• Step ${b} of module ${i + 1} - check the valve at 0${b}h30 and log it':${shown}`,
      ),
      `drawtext=fontfile=${FONT}:fontsize=24:fontcolor=0x555555:x=60:y=660:text='STCW A-VI/1-2 · Module ${i + 1} · page ${i + 1} of ${SLIDES.length}':${shown}`,
    ];
  });
  const graph = [
    `[0:v]${slides.join(',')},drawbox=x=0:y=120:w=1280:h=4:color=0x13315C:t=fill[slide]`,
    '[1:v]noise=alls=12:allf=t+u[presenter]',
    '[slide][presenter]overlay=x=930:y=450[v]',
    // Syllables about four a second, phrases under two a second, over a 140 Hz voice tone.
    "[2:a]volume='0.35+0.3*sin(2*PI*3.7*t)*sin(2*PI*0.6*t)':eval=frame[breath]",
    '[3:a]volume=0.15[voice]',
    '[breath][voice]amix=inputs=2[a]',
  ].join(';');
  await run('ffmpeg', [
    '-hide_banner', '-nostdin', '-v', 'error', '-y',
    '-f', 'lavfi', '-i', `color=c=0xF4F6FA:size=1280x720:rate=25:duration=${seconds}`,
    '-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=25:duration=${seconds}`,
    '-f', 'lavfi', '-i', `anoisesrc=color=pink:sample_rate=48000:amplitude=0.4:duration=${seconds}`,
    '-f', 'lavfi', '-i', `sine=frequency=140:sample_rate=48000:duration=${seconds}`,
    '-filter_complex', graph, '-map', '[v]', '-map', '[a]', '-t', String(seconds),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '16', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-b:a', '192k', '-ac', '2', '-f', 'mp4', file,
  ]);
  return file;
}
