-- A regional football league: venues, teams, players, sponsors and matches (held-out schema, issue 26).
create table venues (
  id integer primary key,
  name text not null,
  city text not null,
  capacity integer not null,
  surface text not null check (surface in ('grass', 'artificial'))
);
create table teams (
  id integer primary key,
  name text not null unique,
  city text not null,
  founded_year integer not null,
  coach_name text not null,
  coach_email text not null unique,
  venue_id integer references venues (id)
);
create table players (
  id integer primary key,
  full_name text not null,
  team_id integer references teams (id),
  position text not null check (position in ('goalkeeper', 'defender', 'midfielder', 'forward')),
  shirt_number integer not null,
  birth_date date not null,
  height_cm integer,
  nationality text not null,
  email text not null unique
);
create table sponsors (
  id integer primary key,
  name text not null,
  industry text not null
);
create table team_sponsors (
  team_id integer not null references teams (id),
  sponsor_id integer not null references sponsors (id),
  primary key (team_id, sponsor_id)
);
create table matches (
  id integer primary key,
  home_team_id integer not null references teams (id),
  away_team_id integer not null references teams (id),
  venue_id integer not null references venues (id),
  played_on date not null,
  home_goals integer,
  away_goals integer,
  attendance integer,
  status text not null default 'scheduled' check (status in ('scheduled', 'played', 'postponed'))
);
