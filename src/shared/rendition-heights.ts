/*
 * Outside the schemas so that the player's and the downloads' code, which need only the heights,
 * do not bring zod onto the learner's screens.
 */

/**
 * The renditions of every part, by the short side of the picture, largest first: the transcoder
 * makes each the source reaches, the player offers them, a course is downloaded in one of them.
 */
export const RENDITION_HEIGHTS = [720, 360] as const;
export type TRenditionHeight = (typeof RENDITION_HEIGHTS)[number];
/** The smallest rendition: played on a slow link or with data saver on, and downloaded unless another is chosen. */
export const SMALLEST_RENDITION_HEIGHT: TRenditionHeight = RENDITION_HEIGHTS.at(-1)!;
