/**
 * The built-in English ↔ pt-BR lexicon: its rules (plural, feminine, gender, two-word phrases), and
 * what it reads on a schema that is not the demo — Portuguese nouns of English tables, English values
 * said in Portuguese and Portuguese values said in English, never a value from one word of two.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineHost } from '../config/index.js';
import type { OpenedApp } from '../config/index.js';
import { defineManager } from '../data/index.js';
import type { Language } from '../router/index.js';
import type { AppReader } from './index.js';
import { createAppReader } from './index.js';
import { englishOf, lexiconWords, ptFeminine, ptGender, ptNoun, ptPlural } from './pt-lexicon.js';
import { PT_LEXICON_PEOPLE } from './pt-lexicon-people.js';
import { PT_LEXICON_THINGS } from './pt-lexicon-things.js';
import { firstRead } from './test-support/first-read.js';
import { openInMemory } from './test-support/host-apps.js';
import { valueSayings } from './value-words.js';

describe('the lexicon rules', () => {
  it('pluralizes by the language rules', () => {
    const cases: Record<string, string> = {
      jogador: 'jogadores', receita: 'receitas', caminhão: 'caminhões', hotel: 'hotéis', nível: 'níveis', canal: 'canais', farol: 'faróis', barril: 'barris',
      fóssil: 'fósseis', armazém: 'armazéns', item: 'itens', mês: 'meses', país: 'países', ônibus: 'ônibus', 'linha de pedido': 'linhas de pedido', cidadã: 'cidadãs',
    };
    for (const [singular, plural] of Object.entries(cases)) expect(ptPlural(singular)).toBe(plural);
  });
  it('derives a person noun feminine and a noun gender', () => {
    expect([ptFeminine('enfermeiro'), ptFeminine('jogador'), ptFeminine('capitão'), ptFeminine('paciente')]).toEqual(['enfermeira', 'jogadora', 'capitã', null]);
    expect([ptGender('receita'), ptGender('estação'), ptGender('cidade'), ptGender('lote'), ptGender('turno')]).toEqual(['f', 'f', 'f', 'm', 'm']);
    expect(ptNoun('goleiro*')).toEqual({ singular: 'goleiro', plural: 'goleiros', gender: 'm', feminine: ['goleira', 'goleiras'] });
    expect(ptNoun('mão/mãos:f')).toEqual({ singular: 'mão', plural: 'mãos', gender: 'f', feminine: null });
    expect(() => ptNoun('a/b/c')).toThrow(/singular\[\/plural\]/);
  });
  it('holds every entry in the form it documents, a few hundred nouns', () => {
    const all = { ...PT_LEXICON_PEOPLE, ...PT_LEXICON_THINGS };
    expect(Object.keys(all).length).toBeGreaterThan(400);
    for (const forms of Object.values(all)) for (const form of forms.split(',')) expect(ptNoun(form).singular.length).toBeGreaterThan(1);
  });
  it('says a two-word phrase in the Portuguese order only when both words are known', () => {
    expect(lexiconWords('shirt number')).toContain('número da camisa');
    expect(lexiconWords('players')).toContain('jogadoras');
    expect(lexiconWords('shirt frobnicator')).toEqual([]);
  });
  it('carries a value across the languages only whole and only from one noun', () => {
    expect(valueSayings('goalkeeper', 'goalkeeper', 'pt-BR')).toEqual(['goalkeeper', 'goleiro', 'goleiros', 'goleira', 'goleiras']);
    expect(valueSayings('enfermeira', 'enfermeira', 'en')).toEqual(['enfermeira', 'nurse', 'nurses']);
    expect(valueSayings('night goalkeeper', 'night goalkeeper', 'pt-BR')).toEqual(['night goalkeeper']);
    // "atendente" is the form of two entries (clerk, agent): no English word is given for it.
    expect(englishOf('atendente').length).toBeGreaterThan(1);
    expect(valueSayings('atendente', 'atendente', 'en')).toEqual(['atendente']);
  });
});

const open = { read: () => true, create: () => false, update: () => false, delete: () => false };
const Bakery = defineManager({ name: 'Bakery', fields: { name: 'string', city: 'string' }, chatExposed: true, permissions: open });
const Worker = defineManager({
  name: 'Worker',
  fields: { fullName: 'string', role: { type: 'enum', values: ['baker', 'cashier', 'courier'] } },
  relations: { bakery: { kind: 'one', target: 'Bakery' } },
  chatExposed: true,
  permissions: open,
});
const Vehicle = defineManager({ name: 'Vehicle', fields: { plate: 'string', kind: 'string' }, chatExposed: true, permissions: open });

let opened: OpenedApp;
let reader: AppReader;
beforeAll(async () => {
  opened = await openInMemory(
    defineHost({
      managers: [Bakery, Worker, Vehicle],
      seed: [
        { manager: 'Bakery', rows: [{ id: 1, name: 'Centro', city: 'Recife' }] },
        { manager: 'Worker', rows: [{ id: 1, fullName: 'Ana Lima', role: 'baker', bakery: 1 }, { id: 2, fullName: 'Rui Sá', role: 'courier', bakery: 1 }] },
        { manager: 'Vehicle', rows: [{ id: 1, plate: 'ABC1D23', kind: 'caminhão' }, { id: 2, plate: 'XYZ9K87', kind: 'ônibus' }] },
      ],
    }),
  );
  reader = await createAppReader({ app: opened.app, hostTools: [], secret: 'pt-lexicon-secret-0123456789' });
});
afterAll(async () => opened.close());

const read = (turn: string, language: Language): ReturnType<typeof firstRead> => firstRead(reader, turn, language);

describe('the lexicon on a schema that is not the demo', () => {
  it('reads Portuguese nouns of English tables, accents or none', () => {
    expect(read('quais padarias existem?', 'pt-BR')).toMatchObject({ tool: 'query_bakery' });
    expect(read('liste os veiculos', 'pt-BR')).toMatchObject({ tool: 'query_vehicle' });
  });
  it('reads an English value said in Portuguese, in either gender', () => {
    expect(read('liste os padeiros', 'pt-BR')).toEqual({ tool: 'query_worker', filters: { role: 'baker' } });
    expect(read('liste as entregadoras', 'pt-BR')).toEqual({ tool: 'query_worker', filters: { role: 'courier' } });
  });
  it('reads a Portuguese value said in English', () => {
    expect(read('list the trucks', 'en')).toEqual({ tool: 'query_vehicle', filters: { kind: 'caminhão' } });
    expect(read('how many buses are there?', 'en')).toMatchObject({ tool: 'query_vehicle', filters: { kind: 'ônibus' } });
  });
});
