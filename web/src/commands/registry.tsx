import {
  createContext,
  type ReactNode,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';

/**
 * An action a person can reach from the command palette (Ctrl/Cmd-K) and,
 * when it has one, by its shortcut. Screens register theirs while mounted
 * (useCommands); the palette and the keyboard handler (commands/) read them.
 */
export interface Command {
  /** Stable and unique among the mounted commands ("card.create"). */
  id: string;
  label: string;
  /** The palette's heading it is listed under ("Navigation", "Card", "List"). */
  group: string;
  /** A key or sequence: "c", "s", "g then s", "mod+enter" (shown in the palette). */
  shortcut?: string;
  /** Words that also find it in the palette. */
  keywords?: string[];
  run: () => void;
}

interface Registration {
  register: (owner: symbol, commands: Command[]) => void;
  unregister: (owner: symbol) => void;
}

const CommandsContext = createContext<Command[]>([]);
const RegistrationContext = createContext<Registration | null>(null);

/** Holds the mounted screens' commands for the palette and the shortcuts. */
export function CommandsProvider({ children }: { children: ReactNode }) {
  const [byOwner, setByOwner] = useState<ReadonlyMap<symbol, Command[]>>(new Map());
  // Stable for the provider's life, so registering never re-runs a screen's effect.
  const registration = useMemo<Registration>(
    () => ({
      register: (owner, commands) =>
        setByOwner((previous) => new Map(previous).set(owner, commands)),
      unregister: (owner) =>
        setByOwner((previous) => {
          const next = new Map(previous);
          next.delete(owner);
          return next;
        }),
    }),
    [],
  );
  const commands = useMemo(() => [...byOwner.values()].flat(), [byOwner]);
  return (
    <RegistrationContext.Provider value={registration}>
      <CommandsContext.Provider value={commands}>{children}</CommandsContext.Provider>
    </RegistrationContext.Provider>
  );
}

/** Every command mounted now, in registration order. */
export function useRegisteredCommands(): Command[] {
  return useContext(CommandsContext);
}

/**
 * Registers the screen's commands while it is mounted. `commands` may be a
 * new array at each render: they are registered again when their ids,
 * labels or shortcuts change, and `run` always calls the latest closure.
 */
export function useCommands(commands: Command[]): void {
  const registration = useContext(RegistrationContext);
  const owner = useRef(Symbol('commands')).current;
  const latest = useRef(commands);
  latest.current = commands;
  const signature = commands
    .map((command) => `${command.id}|${command.label}|${command.group}|${command.shortcut ?? ''}`)
    .join('\n');
  useEffect(() => {
    if (registration === null) return;
    const stable = signature
      .split('\n')
      .filter(Boolean)
      .flatMap((line) => {
        const id = line.split('|')[0];
        const command = latest.current.find((candidate) => candidate.id === id);
        if (command === undefined) return [];
        return [
          {
            ...command,
            run: () => latest.current.find((candidate) => candidate.id === id)?.run(),
          },
        ];
      });
    registration.register(owner, stable);
    return () => registration.unregister(owner);
  }, [signature, owner, registration]);
}
