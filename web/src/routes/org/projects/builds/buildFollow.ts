import type { ImageBuild, ImageBuildStep } from '../../../../api/image-builds.js';

/** A frame of GET /api/image-builds/{id}/logs. */
export type BuildFrame =
  | ({ type: 'step'; index: number } & ImageBuildStep)
  | { type: 'log'; data: string }
  | { type: 'end'; status: 'succeeded' | 'failed'; error: string | null };

/** What the page knows of a followed build, from its frames. */
export interface FollowedBuild {
  steps: ImageBuildStep[];
  log: string;
  end: { status: ImageBuild['status']; error: string | null } | undefined;
}

export const NOTHING_YET: FollowedBuild = { steps: [], log: '', end: undefined };

/** The build after one more frame: a step replaced at its index, log appended, the end. */
export function applyFrame(build: FollowedBuild, frame: BuildFrame): FollowedBuild {
  if (frame.type === 'log') return { ...build, log: build.log + frame.data };
  if (frame.type === 'end') return { ...build, end: { status: frame.status, error: frame.error } };
  const { type: _type, index, ...step } = frame;
  const steps = [...build.steps];
  steps[index] = step;
  return { ...build, steps };
}
