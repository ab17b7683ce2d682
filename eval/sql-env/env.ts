/**
 * A small real text-to-SQL environment for `npm run bench:experience`: a shop database (SQLite,
 * built deterministically from a seeded generator: 400 customers, 60 products, 2,000 orders and
 * their lines), request families with gold results computed by executing their gold query, and
 * an experience set of past trajectories whose status comes from executing them too.
 *
 * The schema was migrated once: `customers.town` became `city` and `products.cost` became
 * `price`. Trajectories recorded before the migration ran on the old schema (the "legacy"
 * database), so some of their final queries that were right then now fail with "no such
 * column", and turn memories record how such errors were fixed — some fixes right, some wrong.
 */
import type { Database, SqlJsStatic } from 'sql.js';

/** A deterministic generator (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const CITIES = ['Lyon', 'Paris', 'Nantes', 'Lille', 'Nice', 'Bordeaux', 'Rennes', 'Dijon'];
export const SEGMENTS = ['retail', 'wholesale', 'online', 'education'];
export const CATEGORIES = ['books', 'garden', 'toys', 'kitchen', 'sports', 'music'];
export const STATUSES = ['shipped', 'cancelled', 'pending'];
export const MONTHS = ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'];
export const YEARS = ['2018', '2019', '2020', '2021', '2022', '2023'];
export const PRICES = ['10', '20', '30', '45', '60', '75', '90'];

const ADJ = ['Red', 'Quick', 'Tiny', 'Grand', 'Silent', 'Bright', 'Old', 'Blue', 'Swift', 'Calm'];

/** Builds the shop database; `legacy` names two columns as they were before the migration. */
export function buildDb(SQL: SqlJsStatic, legacy = false): Database {
  const db = new SQL.Database();
  const city = legacy ? 'town' : 'city';
  const price = legacy ? 'cost' : 'price';
  db.run(`CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, ${city} TEXT, segment TEXT, signup_year INTEGER);
    CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT, category TEXT, ${price} REAL);
    CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER, order_date TEXT, status TEXT);
    CREATE TABLE order_items (order_id INTEGER, product_id INTEGER, qty INTEGER);`);
  const r = rng(20240601);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  db.run('BEGIN');
  for (let i = 1; i <= 400; i++) db.run('INSERT INTO customers VALUES (?, ?, ?, ?, ?)', [i, `customer ${i}`, pick(CITIES), pick(SEGMENTS), Number(pick(YEARS))]);
  for (let i = 1; i <= 60; i++) db.run('INSERT INTO products VALUES (?, ?, ?, ?)', [i, `${ADJ[i % ADJ.length]} ${CATEGORIES[i % CATEGORIES.length]} ${Math.floor(i / 6)}`, CATEGORIES[i % CATEGORIES.length], Math.round((5 + r() * 95) * 100) / 100]);
  for (let i = 1; i <= 2000; i++) {
    const day = 1 + Math.floor(r() * 365);
    const date = new Date(Date.UTC(2024, 0, day)).toISOString().slice(0, 10);
    db.run('INSERT INTO orders VALUES (?, ?, ?, ?)', [i, 1 + Math.floor(r() * 400), date, r() < 0.7 ? 'shipped' : r() < 0.5 ? 'cancelled' : 'pending']);
    const lines = 1 + Math.floor(r() * 3);
    for (let k = 0; k < lines; k++) db.run('INSERT INTO order_items VALUES (?, ?, ?)', [i, 1 + Math.floor(r() * 60), 1 + Math.floor(r() * 5)]);
  }
  db.run('COMMIT');
  return db;
}

/** The result of a query, as compared with the gold result, or its error message. */
export type Outcome = { readonly ok: true; readonly rows: string } | { readonly ok: false; readonly error: string };

export function execute(db: Database, sql: string): Outcome {
  try {
    const res = db.exec(sql);
    const values = res.length ? res[0].values : [];
    return { ok: true, rows: JSON.stringify(values.map((row) => row.map((v) => (typeof v === 'number' ? Math.round(v * 100) / 100 : v)))) };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

/** A request family: how its requests are worded, its gold query, and a plausible wrong query. */
export interface Family {
  readonly name: string;
  readonly slot: readonly string[];
  readonly ask: (v: string) => string;
  /** Another wording, as a past user wrote it. */
  readonly ask2: (v: string) => string;
  readonly gold: (v: string) => string;
  readonly wrong: (v: string) => string;
}

const JOIN_OC = 'FROM orders o JOIN customers c ON c.id = o.customer_id';
const JOIN_LINES = 'FROM order_items i JOIN products p ON p.id = i.product_id JOIN orders o ON o.id = i.order_id';

export const FAMILIES: readonly Family[] = [
  { name: 'orders-by-city', slot: CITIES, ask: (v) => `How many orders were placed by customers in "${v}"?`, ask2: (v) => `Number of orders from customers located in "${v}"`,
    gold: (v) => `SELECT COUNT(*) ${JOIN_OC} WHERE c.city = '${v}'`, wrong: (v) => `SELECT COUNT(DISTINCT c.id) ${JOIN_OC} WHERE c.city = '${v}'` },
  { name: 'customers-in-city', slot: CITIES, ask: (v) => `How many customers live in "${v}"?`, ask2: (v) => `Count the customers whose city is "${v}"`,
    gold: (v) => `SELECT COUNT(*) FROM customers WHERE city = '${v}'`, wrong: (v) => `SELECT COUNT(*) ${JOIN_OC} WHERE c.city = '${v}'` },
  { name: 'revenue-by-category', slot: CATEGORIES, ask: (v) => `What revenue did shipped orders of "${v}" products bring?`, ask2: (v) => `Revenue of "${v}" products on shipped orders`,
    gold: (v) => `SELECT ROUND(SUM(i.qty * p.price), 2) ${JOIN_LINES} WHERE p.category = '${v}' AND o.status = 'shipped'`, wrong: (v) => `SELECT ROUND(SUM(i.qty * p.price), 2) ${JOIN_LINES} WHERE p.category = '${v}'` },
  { name: 'avg-price-by-category', slot: CATEGORIES, ask: (v) => `What is the average price of "${v}" products?`, ask2: (v) => `Average price among "${v}" products`,
    gold: (v) => `SELECT ROUND(AVG(price), 2) FROM products WHERE category = '${v}'`, wrong: (v) => `SELECT ROUND(AVG(p.price), 2) ${JOIN_LINES} WHERE p.category = '${v}'` },
  { name: 'orders-in-month', slot: MONTHS, ask: (v) => `How many orders were placed in month "${v}" of 2024?`, ask2: (v) => `Orders placed during 2024 month "${v}"`,
    gold: (v) => `SELECT COUNT(*) FROM orders WHERE strftime('%m', order_date) = '${v}'`, wrong: (v) => `SELECT COUNT(*) FROM orders WHERE strftime('%d', order_date) = '${v}'` },
  { name: 'cancelled-by-segment', slot: SEGMENTS, ask: (v) => `How many orders of "${v}" customers were cancelled?`, ask2: (v) => `Cancelled orders from the "${v}" segment`,
    gold: (v) => `SELECT COUNT(*) ${JOIN_OC} WHERE c.segment = '${v}' AND o.status = 'cancelled'`, wrong: (v) => `SELECT COUNT(*) ${JOIN_OC} WHERE c.segment = '${v}' AND o.status <> 'shipped'` },
  { name: 'products-above-price', slot: PRICES, ask: (v) => `How many products cost more than "${v}"?`, ask2: (v) => `Count products priced above "${v}"`,
    gold: (v) => `SELECT COUNT(*) FROM products WHERE price > '${v}'`, wrong: (v) => `SELECT COUNT(*) FROM products WHERE price >= '${v}' OR category = 'books'` },
  { name: 'top-product-in-category', slot: CATEGORIES, ask: (v) => `Which "${v}" product sold the most units?`, ask2: (v) => `Best-selling "${v}" product by units`,
    gold: (v) => `SELECT p.name ${JOIN_LINES} WHERE p.category = '${v}' GROUP BY p.id ORDER BY SUM(i.qty) DESC, p.name LIMIT 1`, wrong: (v) => `SELECT p.name ${JOIN_LINES} WHERE p.category = '${v}' GROUP BY p.id ORDER BY COUNT(*) DESC, p.name DESC LIMIT 1` },
  { name: 'top-city-in-segment', slot: SEGMENTS, ask: (v) => `Which city has the most "${v}" customers?`, ask2: (v) => `City with the largest number of "${v}" customers`,
    gold: (v) => `SELECT city FROM customers WHERE segment = '${v}' GROUP BY city ORDER BY COUNT(*) DESC, city LIMIT 1`, wrong: (v) => `SELECT city FROM customers WHERE segment = '${v}' GROUP BY city ORDER BY COUNT(*) ASC, city LIMIT 1` },
  { name: 'signups-in-year', slot: YEARS, ask: (v) => `How many customers signed up in "${v}"?`, ask2: (v) => `Customers who joined in "${v}"`,
    gold: (v) => `SELECT COUNT(*) FROM customers WHERE signup_year = '${v}'`, wrong: (v) => `SELECT COUNT(*) FROM customers WHERE signup_year >= '${v}'` },
  { name: 'pending-by-city', slot: CITIES, ask: (v) => `How many pending orders are there in "${v}"?`, ask2: (v) => `Pending orders of customers in "${v}"`,
    gold: (v) => `SELECT COUNT(*) ${JOIN_OC} WHERE c.city = '${v}' AND o.status = 'pending'`, wrong: (v) => `SELECT COUNT(*) ${JOIN_OC} WHERE c.city = '${v}' AND o.status <> 'shipped'` },
  { name: 'distinct-products-by-city', slot: CITIES, ask: (v) => `How many distinct products did customers in "${v}" buy?`, ask2: (v) => `Different products bought by "${v}" customers`,
    gold: (v) => `SELECT COUNT(DISTINCT i.product_id) FROM order_items i JOIN orders o ON o.id = i.order_id JOIN customers c ON c.id = o.customer_id WHERE c.city = '${v}'`,
    wrong: (v) => `SELECT COUNT(i.product_id) FROM order_items i JOIN orders o ON o.id = i.order_id JOIN customers c ON c.id = o.customer_id WHERE c.city = '${v}'` },
  { name: 'avg-qty-by-category', slot: CATEGORIES, ask: (v) => `What is the average quantity per order line for "${v}"?`, ask2: (v) => `Mean units per line of "${v}" products`,
    gold: (v) => `SELECT ROUND(AVG(i.qty), 2) ${JOIN_LINES} WHERE p.category = '${v}'`, wrong: (v) => `SELECT ROUND(SUM(i.qty) * 1.0 / COUNT(DISTINCT i.order_id), 2) ${JOIN_LINES} WHERE p.category = '${v}'` },
  { name: 'customers-by-segment', slot: SEGMENTS, ask: (v) => `How many "${v}" customers are there?`, ask2: (v) => `Number of customers in the "${v}" segment`,
    gold: (v) => `SELECT COUNT(*) FROM customers WHERE segment = '${v}'`, wrong: (v) => `SELECT COUNT(DISTINCT city) FROM customers WHERE segment = '${v}'` },
];

/** The query as it was written before the migration (old column names). */
export function legacySql(sql: string): string {
  return sql.replace(/\bcity\b/g, 'town').replace(/\bprice\b/g, 'cost');
}

/** The quoted literals of a request, in order. */
export function literals(request: string): string[] {
  return [...request.matchAll(/"([^"]*)"/g)].map((m) => m[1]);
}

/** A query adapted to another request: each of the past request's literals replaced by the new one's. */
export function adapt(sql: string, from: readonly string[], to: readonly string[]): string {
  let out = sql;
  for (let i = 0; i < Math.min(from.length, to.length); i++) out = out.split(`'${from[i]}'`).join(`'${to[i]}'`);
  return out;
}

export interface Request { readonly family: string; readonly text: string; readonly literal: string }

/** Six requests per family, with literals the experience set does not use where the slot allows. */
export function requests(): Request[] {
  const out: Request[] = [];
  for (const f of FAMILIES) {
    const r = rng(f.name.length * 7919 + 17);
    const order = [...f.slot].sort(() => r() - 0.5);
    for (let k = 0; k < 6; k++) {
      const v = order[k % order.length];
      out.push({ family: f.name, text: k % 2 ? f.ask2(v) : f.ask(v), literal: v });
    }
  }
  return out;
}

export interface PastTurn { readonly state: string; readonly fix: { readonly replace: string; readonly with: string }; readonly status: 'ok' | 'error' | 'empty' | 'wrong' }
export interface PastEpisode {
  readonly family: string;
  readonly request: string;
  readonly sql: string;
  /** When it was recorded: before the migration it ran on the legacy database. */
  readonly at: string;
  readonly legacy: boolean;
  readonly turns: readonly PastTurn[];
}

export const MIGRATION = '2025-01-01T00:00:00Z';

/**
 * The experience set: per family four past episodes — two with the right query, two with a
 * wrong one, worded either way — some recorded before the migration; and the turns of the
 * migration's errors, each fix right (town → city) or wrong (town → name, cost → qty).
 * Their status is not written here: `statusOf` executes them.
 */
export function pastEpisodes(): PastEpisode[] {
  const out: PastEpisode[] = [];
  const r = rng(4242);
  FAMILIES.forEach((f, fi) => {
    const vals = [...f.slot].sort(() => r() - 0.5);
    for (let k = 0; k < 4; k++) {
      const v = vals[(k + 3) % vals.length];
      const right = k % 2 === 0;
      const legacy = (fi + k) % 3 === 0;
      const sql = right ? f.gold(v) : f.wrong(v);
      const day = 1 + ((fi * 4 + k) * 7) % 300;
      const at = new Date(Date.UTC(legacy ? 2024 : 2025, 0, day)).toISOString().replace('.000Z', 'Z');
      out.push({ family: f.name, request: (k === 1 || k === 2) ? f.ask(v) : f.ask2(v), sql: legacy ? legacySql(sql) : sql, at, legacy, turns: [] });
    }
  });
  return out;
}

/** Turn memories: states met after the migration and what was tried. */
export const PAST_TURNS: readonly PastTurn[] = [
  { state: 'error: no such column: c.town', fix: { replace: 'town', with: 'region' }, status: 'error' },
  { state: 'error: no such column: c.town', fix: { replace: 'c.town', with: 'c.name' }, status: 'wrong' },
  { state: 'error: no such column: c.town', fix: { replace: 'town', with: 'city' }, status: 'ok' },
  { state: 'error: no such column: town', fix: { replace: 'town', with: 'location' }, status: 'error' },
  { state: 'error: no such column: town', fix: { replace: 'town', with: 'city' }, status: 'ok' },
  { state: 'error: no such column: cost', fix: { replace: 'cost', with: 'amount' }, status: 'error' },
  { state: 'error: no such column: cost', fix: { replace: 'cost', with: 'price' }, status: 'ok' },
  { state: 'error: no such column: p.cost', fix: { replace: 'p.cost', with: 'i.qty' }, status: 'ok' },
  { state: 'error: no such column: p.cost', fix: { replace: 'cost', with: 'value' }, status: 'error' },
  { state: 'error: no such column: p.cost', fix: { replace: 'cost', with: 'price' }, status: 'ok' },
];
