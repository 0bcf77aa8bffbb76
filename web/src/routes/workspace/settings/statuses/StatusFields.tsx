import { useId } from 'react';
import { CATEGORIES, type StatusCategory } from '../../../../api/statuses.js';
import { CATEGORY_LABELS } from '../../overview/CategoryCards.js';

const CONTROL =
  'rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100';

/** The category and color choices of a status (the name is a TextField beside them). */
export function StatusFields({
  category,
  color,
  onCategory,
  onColor,
}: {
  category: StatusCategory;
  color: string;
  onCategory: (category: StatusCategory) => void;
  onColor: (color: string) => void;
}) {
  const categoryId = useId();
  const colorId = useId();
  return (
    <>
      <div className="flex flex-col gap-1">
        <label htmlFor={categoryId} className="text-sm font-medium">
          Category
        </label>
        <select
          id={categoryId}
          value={category}
          onChange={(event) => {
            const next = CATEGORIES.find((candidate) => candidate === event.target.value);
            if (next !== undefined) onCategory(next);
          }}
          className={CONTROL}
        >
          {CATEGORIES.map((candidate) => (
            <option key={candidate} value={candidate}>
              {CATEGORY_LABELS[candidate]}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={colorId} className="text-sm font-medium">
          Color
        </label>
        <input
          id={colorId}
          type="color"
          value={color}
          onChange={(event) => onColor(event.target.value)}
          className={`h-[42px] w-16 p-1 ${CONTROL}`}
        />
      </div>
    </>
  );
}
