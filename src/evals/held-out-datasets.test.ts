import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { loadDataset } from './index.js';

/**
 * The held-out datasets of issue 26 (evals/datasets/{league,brewery,observatory,hospital}.yaml) over their
 * apps (evals/apps/<name>): each loads, its cases are answerable and unanswerable in both
 * languages, and the expected facts a query can state are what the seed holds. No reader runs here.
 */
const root = join(import.meta.dirname, '..', '..', 'evals');

/** A case's first (or `turn`-th) turn must list, among its facts, every value the query returns. */
interface FactCheck {
  readonly id: string;
  readonly sql: string;
  readonly turn?: number;
}

const checks: Readonly<Record<string, readonly FactCheck[]>> = {
  league: [
    { id: 'en-list-forwards', sql: "select full_name from players where position = 'forward'" },
    { id: 'en-count-forwards', sql: "select count(*) from players where position = 'forward'" },
    { id: 'en-count-english', sql: "select count(*) from players where nationality = 'England'" },
    { id: 'en-oldest-player', sql: 'select full_name from players order by birth_date limit 1' },
    { id: 'en-youngest-player', sql: 'select full_name from players order by birth_date desc limit 1' },
    { id: 'en-three-tallest', sql: 'select full_name from players order by height_cm desc limit 3' },
    { id: 'en-shortest-player', sql: 'select full_name from players where height_cm is not null order by height_cm limit 1' },
    { id: 'en-born-2000', sql: "select count(*) from players where birth_date >= '2000-01-01'" },
    { id: 'en-carrow-players', sql: "select p.full_name from players p join teams t on t.id = p.team_id where t.name = 'Carrow City'" },
    { id: 'en-mariners-height', sql: "select round(avg(height_cm), 2) from players p join teams t on t.id = p.team_id where t.name = 'Port Ellis Mariners'" },
    { id: 'en-largest-venue', sql: 'select name from venues order by capacity desc limit 1' },
    { id: 'en-total-capacity', sql: 'select sum(capacity) from venues' },
    { id: 'en-grass-average', sql: "select avg(capacity) from venues where surface = 'grass'" },
    { id: 'en-oldest-team', sql: 'select name from teams order by founded_year limit 1' },
    { id: 'en-mariners-sponsors', sql: "select s.name from sponsors s join team_sponsors x on x.sponsor_id = s.id join teams t on t.id = x.team_id where t.name = 'Port Ellis Mariners'" },
    { id: 'en-drinks-teams', sql: "select distinct t.name from teams t join team_sponsors x on x.team_id = t.id join sponsors s on s.id = x.sponsor_id where s.industry = 'drinks'" },
    { id: 'en-played-count', sql: "select count(*) from matches where status = 'played'" },
    { id: 'en-total-attendance', sql: "select sum(attendance) from matches where status = 'played'" },
    { id: 'en-september', sql: "select count(*) from matches where played_on between '2026-09-01' and '2026-09-30'" },
    { id: 'en-next-rovers', sql: "select min(played_on) from matches m join teams t on t.id in (m.home_team_id, m.away_team_id) where t.name = 'Ashford Rovers' and played_on > '2026-09-28'" },
    { id: 'en-my-shirt', sql: "select shirt_number from players where email = 'rafael.souza@mail.example'" },
    { id: 'en-follow-forwards', turn: 1, sql: "select count(*) from players where position = 'forward' and nationality = 'England'" },
    { id: 'pt-goleiros', sql: "select count(*) from players where position = 'goalkeeper'" },
  ],
  brewery: [
    { id: 'en-hops', sql: "select name from ingredients where kind = 'hop'" },
    { id: 'en-dearest-ingredient', sql: 'select name from ingredients order by cost_per_kg desc limit 1' },
    { id: 'en-cheapest-ingredient', sql: 'select name from ingredients order by cost_per_kg limit 1' },
    { id: 'en-two-strongest', sql: 'select name from recipes order by target_abv_pct desc limit 2' },
    { id: 'en-seasonal', sql: 'select name from recipes where seasonal = 1' },
    { id: 'en-night-heron-ingredients', sql: "select i.name from ingredients i join recipe_ingredients x on x.ingredient_id = i.id join recipes r on r.id = x.recipe_id where r.name = 'Night Heron'" },
    { id: 'en-cascade-recipes', sql: "select r.name from recipes r join recipe_ingredients x on x.recipe_id = r.id join ingredients i on i.id = x.ingredient_id where i.name = 'Cascade'" },
    { id: 'en-largest-tank', sql: 'select code from tanks order by capacity_l desc limit 1' },
    { id: 'en-total-capacity', sql: 'select sum(capacity_l) from tanks' },
    { id: 'en-senior-brewer', sql: 'select full_name from brewers order by hired_on limit 1' },
    { id: 'en-most-batches', sql: 'select b.full_name from batches x join brewers b on b.id = x.brewer_id group by b.id order by count(*) desc limit 1' },
    { id: 'en-fermenting-count', sql: "select count(*) from batches where status = 'fermenting'" },
    { id: 'en-not-packaged', sql: 'select id from batches where packaged_on is null' },
    { id: 'en-packaged-volume', sql: "select sum(volume_l) from batches where status = 'packaged'" },
    { id: 'en-citrus-abv', sql: "select round(avg(measured_abv_pct), 2) from batches x join recipes r on r.id = x.recipe_id where r.name = 'Citrus Drift'" },
    { id: 'en-october-count', sql: "select count(*) from batches where brewed_on between '2026-10-01' and '2026-10-31'" },
    { id: 'en-who-brewed-heron', sql: "select b.full_name from batches x join brewers b on b.id = x.brewer_id join recipes r on r.id = x.recipe_id where r.name = 'Night Heron'" },
    { id: 'en-average-volume', sql: 'select round(avg(volume_l), 2) from batches' },
    { id: 'en-my-batches', sql: "select x.id from batches x join brewers b on b.id = x.brewer_id where b.email = 'priya@brewery.example'" },
    { id: 'en-follow-cellar', turn: 1, sql: "select sum(capacity_l) from tanks where location = 'cellar'" },
  ],
  observatory: [
    { id: 'en-equatorial', sql: "select name from telescopes where mount = 'equatorial'" },
    { id: 'en-largest-aperture', sql: 'select name from telescopes order by aperture_mm desc limit 1' },
    { id: 'en-smallest-scope', sql: 'select name from telescopes order by aperture_mm limit 1' },
    { id: 'en-oldest-scope', sql: 'select name from telescopes order by commissioned_on limit 1' },
    { id: 'en-most-used', sql: 'select t.name from sessions s join telescopes t on t.id = s.telescope_id group by t.id order by count(*) desc limit 1' },
    { id: 'en-students', sql: "select full_name from observers where role = 'student'" },
    { id: 'en-northfield-count', sql: "select count(*) from observers where institution = 'Northfield University'" },
    { id: 'en-nebulae', sql: "select name from targets where kind = 'nebula'" },
    { id: 'en-brightest', sql: 'select name from targets order by magnitude limit 1' },
    { id: 'en-farthest', sql: 'select name from targets order by distance_ly desc limit 1' },
    { id: 'en-no-distance', sql: 'select name from targets where distance_ly is null' },
    { id: 'en-october', sql: "select count(*) from sessions where observed_on between '2026-10-01' and '2026-10-31'" },
    { id: 'en-total-minutes', sql: 'select sum(duration_min) from sessions' },
    { id: 'en-average-minutes', sql: 'select avg(duration_min) from sessions' },
    { id: 'en-kepler-average', sql: "select round(avg(duration_min), 2) from sessions s join telescopes t on t.id = s.telescope_id where t.name = 'Kepler'" },
    { id: 'en-clear-nights', sql: 'select count(*) from sessions where cloud_cover_pct = 0' },
    { id: 'en-who-jupiter', sql: "select distinct o.full_name from sessions s join observers o on o.id = s.observer_id join targets t on t.id = s.target_id where t.name = 'Jupiter'" },
    { id: 'en-my-minutes', sql: "select sum(duration_min) from sessions s join observers o on o.id = s.observer_id where o.email = 'aiko@astro.example'" },
    { id: 'en-my-last', sql: "select max(observed_on) from sessions s join observers o on o.id = s.observer_id where o.email = 'aiko@astro.example'" },
  ],
  hospital: [
    { id: 'en-list-nurses', sql: "select full_name from staff where role = 'nurse'" },
    { id: 'en-count-doctors', sql: "select count(*) from staff where role = 'doctor'" },
    { id: 'en-no-ward', sql: 'select full_name from staff where ward_id is null' },
    { id: 'en-longest-serving', sql: 'select full_name from staff order by hired_on limit 1' },
    { id: 'en-newest-hire', sql: 'select full_name from staff order by hired_on desc limit 1' },
    { id: 'en-lowest-paid', sql: 'select full_name from staff order by hourly_rate limit 1' },
    { id: 'en-three-best-paid', sql: 'select full_name from staff order by hourly_rate desc limit 3' },
    { id: 'en-nurse-rate', sql: "select avg(hourly_rate) from staff where role = 'nurse'" },
    { id: 'en-leeds-staff', sql: "select full_name from staff where home_town = 'Leeds'" },
    { id: 'en-hired-before-2015', sql: "select count(*) from staff where hired_on < '2015-01-01'" },
    { id: 'en-surgery-nurses', sql: "select s.full_name from staff s join wards w on w.id = s.ward_id where w.specialty = 'surgery' and s.role = 'nurse'" },
    { id: 'en-most-beds', sql: 'select name from wards order by beds desc limit 1' },
    { id: 'en-total-beds', sql: 'select sum(beds) from wards' },
    { id: 'en-surgery-average', sql: "select avg(beds) from wards where specialty = 'surgery'" },
    { id: 'en-cancelled', sql: "select shift_date from shifts where status = 'cancelled'" },
    { id: 'en-worked-hours', sql: "select sum(hours) from shifts where status = 'worked'" },
    { id: 'en-november', sql: "select count(*) from shifts where shift_date between '2026-11-01' and '2026-11-30'" },
    { id: 'en-next-samuel', sql: "select min(shift_date) from shifts x join staff s on s.id = x.staff_id where s.full_name = 'Samuel Adeyemi' and shift_date > '2026-12-02'" },
    { id: 'en-most-shifts-staff', sql: 'select s.full_name from shifts x join staff s on s.id = x.staff_id group by s.id order by count(*) desc limit 1' },
    { id: 'en-most-shifts-ward', sql: 'select w.name from shifts x join wards w on w.id = x.ward_id group by w.id order by count(*) desc limit 1' },
    { id: 'en-unapproved', sql: 'select starts_on from leave_requests where approved_on is null' },
    { id: 'en-on-leave-today', sql: "select s.full_name from leave_requests l join staff s on s.id = l.staff_id where '2026-12-02' between l.starts_on and l.ends_on" },
    { id: 'en-my-next-shift', sql: "select min(shift_date) from shifts x join staff s on s.id = x.staff_id where s.email = 'grace.okafor@hospital.example' and shift_date > '2026-12-02'" },
    { id: 'en-my-worked', sql: "select count(*) from shifts x join staff s on s.id = x.staff_id where s.email = 'grace.okafor@hospital.example' and status = 'worked'" },
    { id: 'en-follow-surgery', turn: 1, sql: "select sum(beds) from wards where specialty = 'surgery'" },
  ],
};

function seeded(name: string): BetterSqlite3.Database {
  const database = new BetterSqlite3(':memory:');
  database.exec(readFileSync(join(root, 'apps', name, 'schema.sql'), 'utf8'));
  database.exec(readFileSync(join(root, 'apps', name, 'seed.sql'), 'utf8'));
  return database;
}

describe.each(Object.keys(checks))('the held-out dataset %s', (name) => {
  it('loads over the configured app, with 60+ turns in English and Portuguese and about a tenth unanswerable', async () => {
    const dataset = await loadDataset(join(root, 'datasets', `${name}.yaml`));
    expect(dataset.fixture).toBe('app');
    const turns = dataset.cases.flatMap((item) => item.turns.map((turn) => ({ language: item.language, turn })));
    expect(turns.length).toBeGreaterThanOrEqual(60);
    const portuguese = turns.filter((item) => item.language === 'pt-BR').length / turns.length;
    expect(portuguese).toBeGreaterThan(0.2);
    const unread = turns.filter((item) => item.turn.mustBeUnread).length / turns.length;
    expect(unread).toBeGreaterThan(0.05);
    expect(unread).toBeLessThan(0.15);
    expect(dataset.cases.some((item) => item.turns.length > 1)).toBe(true);
  });

  it('expects the facts the seed holds', async () => {
    const dataset = await loadDataset(join(root, 'datasets', `${name}.yaml`));
    const database = seeded(name);
    try {
      for (const check of checks[name]!) {
        const found = dataset.cases.find((item) => item.id === check.id);
        expect(found, check.id).toBeDefined();
        const facts = found!.turns[check.turn ?? 0]!.expect.facts;
        const values = database.prepare(check.sql).raw().all().map((row) => String((row as unknown[])[0]));
        expect(values.length, check.id).toBeGreaterThan(0);
        expect(facts, `${check.id}: ${check.sql}`).toEqual(expect.arrayContaining(values));
      }
    } finally {
      database.close();
    }
  });
});
