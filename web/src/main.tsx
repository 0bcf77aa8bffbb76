import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { setNonce } from 'get-nonce';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { CommandsProvider } from './commands/registry.js';
import { cspNonce } from './csp.js';
import { createAppRouter } from './router.js';
import './styles.css';

// The page's nonce (the server's policy allows style elements with it only): the dialogs'
// scroll lock reads it here; the card editor takes it from cspNonce().
const nonce = cspNonce();
if (nonce !== undefined) setNonce(nonce);

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
