-- A hospital's staff rota: wards, staff, their skills, shifts and leave requests (held-out schema, issue 26).
create table wards (
  id integer primary key,
  name text not null unique,
  floor integer not null,
  beds integer not null,
  specialty text not null check (specialty in ('cardiology', 'paediatrics', 'surgery', 'oncology', 'maternity'))
);
create table staff (
  id integer primary key,
  full_name text not null,
  role text not null check (role in ('nurse', 'doctor', 'porter', 'pharmacist')),
  ward_id integer references wards (id),
  hired_on date not null,
  hourly_rate numeric not null,
  home_town text not null,
  email text not null unique
);
create table staff_skills (
  staff_id integer not null references staff (id),
  skill text not null,
  primary key (staff_id, skill)
);
create table shifts (
  id integer primary key,
  staff_id integer not null references staff (id),
  ward_id integer not null references wards (id),
  shift_date date not null,
  kind text not null check (kind in ('early', 'late', 'night')),
  hours integer not null,
  status text not null default 'planned' check (status in ('planned', 'worked', 'cancelled'))
);
create table leave_requests (
  id integer primary key,
  staff_id integer not null references staff (id),
  starts_on date not null,
  ends_on date not null,
  reason text not null,
  approved_on date
);
