-- A university observatory's log: telescopes, observers, targets and observing sessions (held-out schema, issue 26).
create table telescopes (
  id integer primary key,
  name text not null unique,
  aperture_mm integer not null,
  focal_length_mm integer not null,
  mount text not null check (mount in ('equatorial', 'altazimuth', 'dobsonian')),
  site text not null,
  commissioned_on date not null
);
create table observers (
  id integer primary key,
  full_name text not null,
  email text not null unique,
  institution text not null,
  country text not null,
  role text not null check (role in ('student', 'staff', 'visitor'))
);
create table observer_skills (
  observer_id integer not null references observers (id),
  skill text not null,
  primary key (observer_id, skill)
);
create table targets (
  id integer primary key,
  name text not null unique,
  kind text not null check (kind in ('galaxy', 'nebula', 'star cluster', 'planet', 'double star')),
  constellation text not null,
  magnitude real not null,
  distance_ly real
);
create table sessions (
  id integer primary key,
  telescope_id integer not null references telescopes (id),
  observer_id integer not null references observers (id),
  target_id integer not null references targets (id),
  observed_on date not null,
  duration_min integer not null,
  seeing_arcsec real,
  cloud_cover_pct integer not null default 0,
  notes text
);
