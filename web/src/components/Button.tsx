import type { ButtonHTMLAttributes } from 'react';

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'quiet' | 'danger';
}

const VARIANTS = {
  primary:
    'bg-blue-700 text-white hover:bg-blue-800 disabled:bg-blue-700/60 dark:bg-blue-500 dark:text-zinc-950 dark:hover:bg-blue-400',
  danger:
    'bg-red-700 text-white hover:bg-red-800 disabled:bg-red-700/50 dark:bg-red-400 dark:text-zinc-950 dark:hover:bg-red-300',
  quiet:
    'border border-zinc-300 text-zinc-800 hover:bg-zinc-100 dark:border-zinc-600 dark:text-zinc-100 dark:hover:bg-zinc-800',
};

export function Button({ variant = 'primary', className = '', ...button }: ButtonProps) {
  return (
    <button
      type="button"
      className={`rounded-md px-4 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:focus-visible:outline-blue-400 ${VARIANTS[variant]} ${className}`}
      {...button}
    />
  );
}
