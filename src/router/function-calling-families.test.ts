/**
 * The families of wrong runs seen on function-calling cases the project never sees, each tried on tool
 * definitions of its own (BFCL-style: a name, a description, a JSON Schema, no vocabulary for English;
 * triggers for Portuguese). A turn of a family either runs with the right arguments or does not run:
 * never with a value half read (a number without the word that changes it, a list cut at its first
 * item, one date in two fields, a date in the wrong format, an enum or a flag the turn names left out).
 */
import { describe, expect, it } from 'vitest';
import type { CatalogueEntry, JsonSchema, TurnPlan } from './index.js';
import { createRouter } from './index.js';
import { SECRET } from '../../test/support/demo-router.js';

const tool = (name: string, description: string, properties: Record<string, JsonSchema>, required: readonly string[] = Object.keys(properties)): CatalogueEntry => ({
  name,
  description,
  parameters: { type: 'object', properties, required: [...required] },
  effect: 'read',
});
const num = (description = ''): JsonSchema => ({ type: 'number', description });
const int = (description = ''): JsonSchema => ({ type: 'integer', description });
const str = (description = ''): JsonSchema => ({ type: 'string', description });
const bool = (description = ''): JsonSchema => ({ type: 'boolean', description });
const oneOf = (values: readonly string[], description = ''): JsonSchema => ({ type: 'string', enum: [...values], description });

interface Case {
  readonly turn: string;
  /** The arguments of the one call, or `null`: the turn must not run. */
  readonly args: Readonly<Record<string, unknown>> | null;
  /** Whether the turn must run (else not running is as good as running right). */
  readonly mustRun?: boolean;
  readonly now?: string;
}

function plan(catalogue: CatalogueEntry[], turn: string, language: 'en' | 'pt-BR', now?: string, vocabulary?: string): TurnPlan {
  return createRouter({ catalogue, secret: SECRET, ...(vocabulary === undefined ? {} : { vocabulary }) }).plan(turn, { language, ...(now === undefined ? {} : { context: { now } }) });
}

/** Runs each case: a run must carry exactly the expected arguments; a case expecting none must not run. */
function family(title: string, catalogue: CatalogueEntry[], cases: readonly Case[], language: 'en' | 'pt-BR' = 'en', vocabulary?: string): void {
  describe(title, () => {
    for (const c of cases) {
      it(`${c.args === null ? 'does not run' : c.mustRun === true ? 'runs' : 'runs right or not at all'}: ${c.turn}`, () => {
        const result = plan(catalogue, c.turn, language, c.now, vocabulary);
        const calls = result.steps.filter((s) => s.kind === 'tool').map((s) => s.selection.arguments);
        if (c.args === null) expect({ outcome: result.outcome, calls }).not.toMatchObject({ outcome: 'run' });
        else if (c.mustRun === true || result.outcome === 'run') expect({ outcome: result.outcome, calls }).toEqual({ outcome: 'run', calls: [c.args] });
        else expect(result.outcome).not.toBe('run');
      });
    }
  });
}

const pt = (triggers: Readonly<Record<string, string>>): string =>
  ['settings:', '  language: pt-BR', 'languages:', '  pt-BR:', '    tools:', ...Object.entries(triggers).map(([name, trigger]) => `      ${name}: { triggers: ["${trigger}"] }`)].join('\n');

// ---------------------------------------------------------------- a. a number and the word after it

family('a. a number followed by a word that changes it (en)', [
  tool('calculate_circle_area', 'Calculate the area of a circle.', { radius: num('The radius of the circle.') }),
  tool('calculate_running_pace', 'Calculate a running pace.', { distance: num('Distance in miles.'), time: num('Time in minutes.') }),
  tool('set_oven_temperature', 'Set the oven temperature.', { temperature: int('Oven temperature in degrees Fahrenheit.') }),
  tool('calculate_arc_length', 'Calculate the length of an arc.', { radius: num('The radius.'), angle: num('The angle in radians.') }),
  tool('order_supplies', 'Order office supplies.', { item: str('The item to order.'), quantity: int('Number of units.') }),
], [
  { turn: 'Calculate the circle area with a radius of 2 pi', args: null },
  { turn: 'Calculate the circle area with a radius of 4', args: { radius: 4 }, mustRun: true },
  { turn: 'Calculate the running pace for a distance of 10 km and a time of 50 minutes', args: null },
  { turn: 'Calculate the running pace for a distance of 6 miles and a time of 50 minutes', args: { distance: 6, time: 50 } },
  { turn: 'Set the oven temperature to 180 °C', args: null },
  { turn: 'Set the oven temperature to 180 degrees Celsius', args: null },
  { turn: 'Calculate the arc length with a radius of 3 and an angle of 0.5 pi', args: null },
  { turn: 'Order supplies: item "eggs", quantity 2 dozen', args: { item: 'eggs', quantity: 24 } },
  { turn: 'Calculate the circle area with a radius of 3 thousand', args: { radius: 3000 } },
]);

family('a. a number followed by a word that changes it (pt-BR)', [
  tool('area_circulo', 'Calcula a área de um círculo.', { raio: num('O raio do círculo.') }),
  tool('ritmo_corrida', 'Calcula o ritmo de uma corrida.', { distancia: num('Distância em milhas.') }),
  tool('encomendar', 'Encomenda material.', { quantidade: int('Número de unidades.') }),
], [
  { turn: 'calcule a área do círculo com raio de 2 pi', args: null },
  { turn: 'calcule a área do círculo com raio de 4', args: { raio: 4 }, mustRun: true },
  { turn: 'calcule o ritmo da corrida para uma distância de 10 km', args: null },
  { turn: 'encomende material, quantidade de 3 dúzias', args: { quantidade: 36 } },
], 'pt-BR', pt({ area_circulo: 'area do circulo', ritmo_corrida: 'ritmo da corrida', encomendar: 'encomende' }));

// ---------------------------------------------------------------- b. a list into an array

const cuisines = ['italian', 'mexican', 'thai', 'indian', 'chinese'];
family('b. a list into an array parameter (en)', [
  tool('find_restaurants', 'Find restaurants.', { location: str('City.'), cuisines: { type: 'array', items: { type: 'string', enum: cuisines }, description: 'Cuisines.' } }),
  tool('get_weather_forecast', 'Weather forecast for several cities.', { cities: { type: 'array', items: { type: 'string' }, description: 'List of city names.' } }),
  tool('calculate_average', 'Average of numbers.', { numbers: { type: 'array', items: { type: 'number' }, description: 'The numbers.' } }),
], [
  { turn: 'find restaurants in Boston with italian, mexican and thai cuisines', args: { location: 'Boston', cuisines: ['italian', 'mexican', 'thai'] } },
  { turn: 'find restaurants in Boston with cuisines italian, mexican and thai', args: { location: 'Boston', cuisines: ['italian', 'mexican', 'thai'] } },
  { turn: 'find restaurants in Boston with cuisines italian, greek and thai', args: null },
  { turn: 'find restaurants in Boston with italian, greek and thai cuisines', args: null },
  { turn: 'get the weather forecast for the cities Paris, London and Rome', args: { cities: ['Paris', 'London', 'Rome'] } },
  { turn: 'calculate the average of the numbers 3, 5 and 7', args: { numbers: [3, 5, 7] } },
]);

family('b. a list into an array parameter (pt-BR)', [
  tool('encontrar_restaurantes', 'Encontra restaurantes.', { cozinhas: { type: 'array', items: { type: 'string', enum: ['italiana', 'mexicana', 'tailandesa'] } } }),
], [
  { turn: 'encontre restaurantes com cozinhas italiana, mexicana e tailandesa', args: { cozinhas: ['italiana', 'mexicana', 'tailandesa'] } },
  { turn: 'encontre restaurantes com cozinhas italiana, grega e tailandesa', args: null },
], 'pt-BR', pt({ encontrar_restaurantes: 'encontre restaurantes' }));

// ---------------------------------------------------------------- c. one date phrase, two date fields

const NOW = '2026-10-19T09:00:00+01:00'; // a Monday
family('c. one date phrase and a start and an end (en)', [
  tool('get_weather_history', 'Past weather for a place.', { location: str('City.'), start_date: str('Start date.'), end_date: str('End date.') }),
  tool('list_bookings', 'List the bookings.', { start_date: { type: 'string', format: 'date' }, end_date: { type: 'string', format: 'date' } }, []),
], [
  { turn: 'get the weather history in Boston on 2023-03-01', args: null },
  { turn: 'get the weather history in Boston from 2023-03-01 to 2023-03-05', args: { location: 'Boston', start_date: '2023-03-01', end_date: '2023-03-05' } },
  { turn: 'get the weather history in Boston from March 1, 2023 to March 5, 2023', args: { location: 'Boston', start_date: 'March 1, 2023', end_date: 'March 5, 2023' } },
  { turn: 'list bookings tomorrow', args: null, now: NOW },
  { turn: 'list bookings from Monday to Friday', args: { start_date: '2026-10-19', end_date: '2026-10-23' }, now: NOW },
]);

family('c. one date phrase and a start and an end (pt-BR)', [
  tool('listar_reservas', 'Lista as reservas.', { data_inicio: { type: 'string', format: 'date' }, data_fim: { type: 'string', format: 'date' } }, []),
], [
  { turn: 'liste as reservas de segunda até sexta', args: { data_inicio: '2026-10-19', data_fim: '2026-10-23' }, now: NOW },
  { turn: 'liste as reservas amanhã', args: null, now: NOW },
], 'pt-BR', pt({ listar_reservas: 'liste as reservas' }));

// ---------------------------------------------------------------- d. a date in the format the description names

family('d. a date in the format its description names (en)', [
  tool('get_air_quality', 'Air quality index of a city on a date.', { location: str('City.'), date: str('The date in the format YYYY-MM-DD.') }),
  tool('get_pollen_count', 'Pollen count of a city on a date.', { location: str('City.'), date: str('Date, in MM/DD/YYYY format.') }),
  tool('get_holiday_events', 'Holiday events of a day.', { date: str("The day, in the format of 'dd-mm'.") }),
], [
  { turn: 'get the air quality in London on 2023/03/01', args: { location: 'London', date: '2023-03-01' } },
  { turn: 'get the air quality in London on March 1st 2023', args: { location: 'London', date: '2023-03-01' } },
  { turn: 'get the pollen count in London on 2023-03-01', args: { location: 'London', date: '03/01/2023' } },
  { turn: 'get the pollen count in London tomorrow', args: { location: 'London', date: '10/20/2026' }, now: NOW },
  { turn: 'get the holiday events on 12/25', args: { date: '25-12' } },
  { turn: 'get the air quality in London on 03/04/2023', args: null },
]);

family('d. a date in the format its description names (pt-BR)', [
  tool('qualidade_ar', 'Qualidade do ar de uma cidade num dia.', { cidade: str('Cidade.'), data: str('Data no formato DD/MM/AAAA.') }),
], [
  { turn: 'qualidade do ar em Curitiba amanhã', args: { cidade: 'Curitiba', data: '20/10/2026' }, now: NOW },
  { turn: 'qualidade do ar em Curitiba no dia 2023-04-03', args: { cidade: 'Curitiba', data: '03/04/2023' } },
], 'pt-BR', pt({ qualidade_ar: 'qualidade do ar' }));

// ---------------------------------------------------------------- e. an enum value the turn names

family('e. an enum value the turn names (en)', [
  tool('get_weather', 'Current weather of a city.', { location: str('City and country, e.g. Paris, France.'), unit: oneOf(['C', 'F'], 'Temperature unit.') }, ['location']),
  tool('list_transactions', 'List the transactions of an account.', { account_id: str('The account.'), order: oneOf(['asc', 'desc'], 'Sort order by date.') }, ['account_id']),
  tool('stream_video', 'Stream a video.', { title: str('Title.'), resolution: oneOf(['HD', 'FULL_HD', 'ULTRA_HD'], 'Resolution.') }, ['title']),
  tool('get_directions', 'Directions between two places.', { origin: str('Start.'), destination: str('End.'), mode: oneOf(['driving', 'walking', 'bicycling', 'transit'], 'Travel mode.') }, ['origin', 'destination']),
], [
  { turn: 'get the weather in Paris, France in Celsius', args: { location: 'Paris, France', unit: 'C' } },
  { turn: 'get the weather in Paris, France in Kelvin', args: null },
  { turn: 'list transactions for account id 12345 sorted descending', args: { account_id: '12345', order: 'desc' } },
  { turn: 'stream video "Dune" in ultra-HD', args: { title: 'Dune', resolution: 'ULTRA_HD' } },
  { turn: 'stream video "Dune" in full hd', args: { title: 'Dune', resolution: 'FULL_HD' } },
  { turn: 'get directions from Boston to Cambridge by bike', args: { origin: 'Boston', destination: 'Cambridge', mode: 'bicycling' } },
  { turn: 'get directions from Boston to Cambridge by helicopter', args: null },
]);

family('e. an enum value the turn names (pt-BR)', [
  tool('tempo_atual', 'Tempo atual de uma cidade.', { cidade: str('Cidade.'), unidade: oneOf(['celsius', 'fahrenheit']) }, ['cidade']),
  tool('listar_transacoes', 'Lista as transações de uma conta.', { conta: str('Número da conta.', ), ordem: oneOf(['asc', 'desc'], 'Ordem por data.') }, ['conta']),
], [
  { turn: 'tempo atual em Recife em Fahrenheit', args: { cidade: 'Recife', unidade: 'fahrenheit' } },
  { turn: 'liste as transações da conta "12345" em ordem decrescente', args: { conta: '12345', ordem: 'desc' } },
], 'pt-BR', pt({ tempo_atual: 'tempo atual', listar_transacoes: 'liste as transacoes' }));

// ---------------------------------------------------------------- f. an optional flag the turn asks for

family('f. an optional flag the turn asks for (en)', [
  tool('search_hotels', 'Search hotels in a city.', { location: str('City.'), pet_friendly: bool('Only pet-friendly hotels.') }, ['location']),
  tool('get_recipe', 'Get a recipe.', { dish: str('The dish.'), include_nutrition: bool('Include nutrition facts.') }, ['dish']),
  tool('get_artwork', 'Artworks of an artist.', { artist: str('The artist.'), detailed: bool('Give a detailed description.') }, ['artist']),
  tool('list_orders', 'List the orders of a customer.', { customer_id: str('Customer.'), reverse: bool('Sort in descending order, newest first.') }, ['customer_id']),
  tool('get_stock_info', 'Stock information.', { symbol: str('Ticker symbol.'), include_history: bool('Include price history.') }, ['symbol']),
], [
  { turn: 'search hotels in Miami that are pet friendly', args: { location: 'Miami', pet_friendly: true } },
  { turn: 'get the recipe for dish "lasagna" with nutrition facts', args: { dish: 'lasagna', include_nutrition: true } },
  { turn: 'get a detailed artwork list by the artist "Claude Monet"', args: { artist: 'Claude Monet', detailed: true } },
  { turn: 'list orders of customer id 4411 sorted descending', args: { customer_id: '4411', reverse: true } },
  { turn: 'get stock info for symbol "AAPL" including its history', args: { symbol: 'AAPL', include_history: true }, mustRun: true },
  { turn: 'get stock info for symbol "AAPL" without history', args: { symbol: 'AAPL', include_history: false }, mustRun: true },
]);

family('f. an optional flag the turn asks for (pt-BR)', [
  tool('obter_receita', 'Obtém uma receita.', { prato: str('O prato.'), incluir_nutricao: bool('Incluir informação nutricional.') }, ['prato']),
  tool('buscar_hoteis', 'Busca hotéis numa cidade.', { cidade: str('Cidade.'), aceita_pets: bool('Só hotéis que aceitam pets.') }, ['cidade']),
], [
  { turn: 'obter receita do prato "lasanha" com informações nutricionais', args: { prato: 'lasanha', incluir_nutricao: true } },
  { turn: 'busque hotéis em Miami que aceitam pets', args: { cidade: 'Miami', aceita_pets: true } },
], 'pt-BR', pt({ obter_receita: 'obter receita', buscar_hoteis: 'busque hoteis' }));

// ---------------------------------------------------------------- a second round, written after the fixes and run once before any change

family('second round: every family on tools of another domain (en)', [
  tool('calculate_fuel_cost', 'Fuel cost of a trip.', { distance: num('Trip distance in kilometers.'), price_per_liter: num('Fuel price per liter.') }),
  tool('plan_trip', 'Plan a trip between two dates.', { destination: str('City.'), start_date: str("Start date, in the format 'YYYY-MM-DD'."), end_date: str("End date, in the format 'YYYY-MM-DD'.") }),
  tool('search_books', 'Search books.', { genres: { type: 'array', items: { type: 'string', enum: ['fantasy', 'mystery', 'romance', 'horror'] } }, sort: oneOf(['asc', 'desc'], 'Sort by year.'), include_ebooks: bool('Also list e-books.') }, ['genres']),
], [
  { turn: 'calculate the fuel cost for a distance of 300 miles and a price per liter of 1.8', args: null },
  { turn: 'calculate the fuel cost for a distance of 300 km and a price per liter of 1.8', args: { distance: 300, price_per_liter: 1.8 } },
  { turn: 'plan a trip to Lisbon from June 3, 2024 to June 9, 2024', args: { destination: 'Lisbon', start_date: '2024-06-03', end_date: '2024-06-09' } },
  { turn: 'plan a trip to Lisbon on June 3, 2024', args: null },
  { turn: 'search books in fantasy, mystery and horror genres', args: { genres: ['fantasy', 'mystery', 'horror'] } },
  { turn: 'search books in fantasy, western and horror genres', args: null },
  { turn: 'search books in the fantasy genre sorted ascending', args: { genres: ['fantasy'], sort: 'asc' } },
  { turn: 'search books in the fantasy genre including e-books', args: { genres: ['fantasy'], include_ebooks: true } },
]);

family('second round: every family on tools of another domain (pt-BR)', [
  tool('custo_combustivel', 'Custo de combustível de uma viagem.', { distancia: num('Distância da viagem em quilômetros.') }),
  tool('planejar_viagem', 'Planeja uma viagem.', { destino: str('Cidade.'), data_inicio: str('Data de início no formato DD/MM/AAAA.'), data_fim: str('Data de fim no formato DD/MM/AAAA.') }),
], [
  { turn: 'custo de combustível para uma distância de 300 milhas', args: null },
  { turn: 'planeje uma viagem para Lisboa de 3 de junho de 2024 até 9 de junho de 2024', args: { destino: 'Lisboa', data_inicio: '03/06/2024', data_fim: '09/06/2024' } },
  { turn: 'planeje uma viagem para Lisboa no dia 3 de junho de 2024', args: null },
], 'pt-BR', pt({ custo_combustivel: 'custo de combustivel', planejar_viagem: 'planeje uma viagem' }));
