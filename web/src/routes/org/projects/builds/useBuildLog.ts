import { useEffect, useState } from 'react';
import { type Frame, useFrames } from '../../../../live/useFrames.js';
import { applyFrame, type BuildFrame, type FollowedBuild, NOTHING_YET } from './buildFollow.js';

export type SocketStatus = 'connecting' | 'open' | 'closed' | 'failed';

/**
 * Follows a build's log socket (GET /api/image-builds/{id}/logs, through
 * the shared useFrames): its steps and log as they come.
 */
export function useBuildLog(buildId: string): { build: FollowedBuild; status: SocketStatus } {
  const [build, setBuild] = useState<FollowedBuild>(NOTHING_YET);
  // biome-ignore lint/correctness/useExhaustiveDependencies: starts over for another build
  useEffect(() => setBuild(NOTHING_YET), [buildId]);
  const { state } = useFrames(`/api/image-builds/${buildId}/logs`, (frame: Frame) =>
    setBuild((current) => applyFrame(current, frame as BuildFrame)),
  );
  const status =
    state.status === 'closed' ? (state.code === 1000 ? 'closed' : 'failed') : state.status;
  return { build, status };
}
