// Removes dist/ before `npm run build`, so no file of an earlier build (a renamed module, an old
// chunk) can ship in the package.
import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
