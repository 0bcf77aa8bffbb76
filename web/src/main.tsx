import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { CommandsProvider } from './commands/registry.js';
import { cspNonce, nonceEveryStyleElement } from './csp.js';
import { createAppRouter } from './router.js';
import './styles.css';

// The server's policy lets a style element in by the page's nonce only: libraries add some.
const nonce = cspNonce();
if (nonce !== undefined) nonceEveryStyleElement(nonce);

const queryClient = new QueryClient({
  defaultOptions: {
    // Fresh for 2 s: a screen does not ask again for what its route's loader just read.
    queries: { retry: 1, refetchOnWindowFocus: true, staleTime: 2_000 },
  },
});
const router = createAppRouter(queryClient);

const root = document.getElementById('root');
if (root === null) throw new Error('The page has no #root element');
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <CommandsProvider>
        <RouterProvider router={router} />
      </CommandsProvider>
    </QueryClientProvider>
  </StrictMode>,
);
