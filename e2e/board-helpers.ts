import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** One column of the board, by its name (a status, an option, "No {field}"). */
export function column(page: Page, name: string): Locator {
  return page.getByRole('region', { name: 'Board' }).getByRole('region', { name, exact: true });
}

/** Drags with the mouse, in small steps as a hand would (dnd-kit starts after a few pixels). */
export async function dragWithMouse(page: Page, card: Locator, target: Locator, offsetY = 0) {
  const from = await card.boundingBox();
  const to = await target.boundingBox();
  if (from === null || to === null) throw new Error('dragWithMouse: not on screen');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + 10, { steps: 4 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2 + offsetY, { steps: 12 });
  await page.mouse.up();
}

/**
 * Moves a card one column over by keyboard only: Space lifts it (dnd-kit marks
 * it pressed and says where it is), the arrow moves it, Space drops it once
 * the target column shows where it would land.
 */
export async function moveByKeyboard(
  page: Page,
  card: Locator,
  arrow: 'ArrowLeft' | 'ArrowRight',
  target: Locator,
) {
  await card.focus();
  await page.keyboard.press('Space');
  await expect.poll(() => card.getAttribute('aria-pressed')).toBe('true');
  // The board has said where the lifted card is: the drag is under way, arrows are heard.
  await page.getByText(/ is over .+, place \d+ of \d+\.$/).waitFor();
  await page.keyboard.press(arrow);
  await target.locator('[data-drop-target]').waitFor({ state: 'attached' });
  await page.keyboard.press('Space');
}

/** The machine is shared: give a write and its refetch a few seconds. */
export const eventually = { timeout: 10_000 };
