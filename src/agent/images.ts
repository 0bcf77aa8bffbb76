import type Docker from 'dockerode';
import { AgentError, engineStatus, fromEngineError } from './errors.js';

export interface CommitOptions {
  /** Image repository, such as `localhost/sparrow/project-<id>`. */
  repository: string;
  tag: string;
  /** Added to the image's labels (on top of those the container carried). */
  labels?: Record<string, string>;
}

export interface CommittedImage {
  /** The engine's image id (`sha256:...`). */
  id: string;
  /** `repository:tag`, the name to create containers from. */
  reference: string;
}

/**
 * Commits a container's file system and configuration as an image, the
 * container paused meanwhile. Labels travel as `LABEL` changes: the request
 * body (a container config) is ignored by Podman, changes work on both
 * engines. The caller restricts label values to characters that need no
 * quoting. The image keeps the container's labels too: containers made from
 * it inherit them.
 */
export async function commitContainer(
  docker: Docker,
  containerId: string,
  options: CommitOptions,
): Promise<CommittedImage> {
  const reference = `${options.repository}:${options.tag}`;
  const changes = Object.entries(options.labels ?? {}).map(
    ([key, value]) => `LABEL ${key}=${value}`,
  );
  try {
    await docker.getContainer(containerId).commit({
      _query: {
        container: containerId,
        repo: options.repository,
        tag: options.tag,
        changes,
        pause: true,
      },
      // Docker's optional container config; Podman requires a body, and
      // dockerode drops an empty one.
      _body: { Labels: options.labels ?? {} },
    });
  } catch (error) {
    throw fromEngineError(error, `container ${containerId}`);
  }
  try {
    const image = await docker.getImage(reference).inspect();
    return { id: image.Id, reference };
  } catch (error) {
    throw fromEngineError(error, `image ${reference}`, 'image_not_found');
  }
}

/** Removes an image by reference; false when there was none. Refused (conflict) while in use. */
export async function removeImage(docker: Docker, reference: string): Promise<boolean> {
  try {
    await docker.getImage(reference).remove();
    return true;
  } catch (error) {
    if (engineStatus(error) === 404) return false;
    if (engineStatus(error) === 409) {
      throw new AgentError('conflict', `image ${reference} is in use by a container`);
    }
    throw fromEngineError(error, `image ${reference}`, 'image_not_found');
  }
}
