-- A small craft brewery's production log: recipes, ingredients, tanks, brewers and batches (held-out schema, issue 26).
create table recipes (
  id integer primary key,
  name text not null unique,
  style text not null,
  target_abv_pct real not null,
  ibu integer,
  seasonal boolean not null default 0
);
create table ingredients (
  id integer primary key,
  name text not null unique,
  kind text not null check (kind in ('malt', 'hop', 'yeast', 'adjunct')),
  supplier text not null,
  cost_per_kg real not null
);
create table recipe_ingredients (
  recipe_id integer not null references recipes (id),
  ingredient_id integer not null references ingredients (id),
  primary key (recipe_id, ingredient_id)
);
create table tanks (
  id integer primary key,
  code text not null unique,
  capacity_l integer not null,
  location text not null,
  installed_on date not null
);
create table brewers (
  id integer primary key,
  full_name text not null,
  email text not null unique,
  hired_on date not null,
  shift text not null check (shift in ('morning', 'evening'))
);
create table batches (
  id integer primary key,
  recipe_id integer not null references recipes (id),
  tank_id integer not null references tanks (id),
  brewer_id integer not null references brewers (id),
  brewed_on date not null,
  volume_l integer not null,
  measured_abv_pct real,
  status text not null default 'fermenting' check (status in ('fermenting', 'conditioning', 'packaged', 'dumped')),
  packaged_on date
);
