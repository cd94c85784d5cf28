-- A repertory theatre company: stages, actors, productions, the roles cast in them and their performances (held-out schema, issue 26).
create table stages (
  id integer primary key,
  name text not null unique,
  seats integer not null,
  depth_m numeric not null,
  opened_year integer not null
);
create table actors (
  id integer primary key,
  full_name text not null,
  born_year integer not null,
  home_city text not null,
  height_cm integer not null,
  joined_on date not null,
  email text not null unique
);
create table productions (
  id integer primary key,
  title text not null unique,
  playwright text not null,
  genre text not null check (genre in ('comedy', 'drama', 'musical', 'tragedy')),
  stage_id integer not null references stages (id),
  opens_on date not null,
  closes_on date,
  runtime_min integer not null,
  ticket_price_gbp numeric not null
);
create table roles (
  id integer primary key,
  production_id integer not null references productions (id),
  actor_id integer not null references actors (id),
  understudy_id integer references actors (id),
  character_name text not null
);
create table performances (
  id integer primary key,
  production_id integer not null references productions (id),
  performed_on date not null,
  curtain_time text not null,
  audience_count integer,
  status text not null default 'scheduled' check (status in ('scheduled', 'performed', 'cancelled'))
);
