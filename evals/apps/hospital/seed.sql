insert into wards (id, name, floor, beds, specialty) values
  (1, 'Oak Ward', 2, 24, 'cardiology'),
  (2, 'Willow Ward', 3, 18, 'paediatrics'),
  (3, 'Birch Ward', 4, 30, 'surgery'),
  (4, 'Maple Ward', 1, 12, 'maternity'),
  (5, 'Cedar Ward', 5, 20, 'oncology'),
  (6, 'Elm Ward', 4, 16, 'surgery');
insert into staff (id, full_name, role, ward_id, hired_on, hourly_rate, home_town, email) values
  (1, 'Grace Okafor', 'nurse', 1, '2012-04-02', 31.50, 'Leeds', 'grace.okafor@hospital.example'),
  (2, 'Tomasz Nowak', 'doctor', 1, '2016-09-12', 68.00, 'York', 'tomasz.nowak@hospital.example'),
  (3, 'Priya Raman', 'nurse', 2, '2019-01-07', 29.00, 'Leeds', 'priya.raman@hospital.example'),
  (4, 'Helen Marsh', 'doctor', 2, '2008-06-30', 74.50, 'Harrogate', 'helen.marsh@hospital.example'),
  (5, 'Samuel Adeyemi', 'nurse', 3, '2021-11-15', 27.50, 'Bradford', 'samuel.adeyemi@hospital.example'),
  (6, 'Lucia Bianchi', 'doctor', 3, '2014-03-03', 71.00, 'York', 'lucia.bianchi@hospital.example'),
  (7, 'Owen Price', 'porter', null, '2023-02-20', 14.20, 'Leeds', 'owen.price@hospital.example'),
  (8, 'Fatima Zahra', 'pharmacist', null, '2017-08-01', 38.00, 'Wakefield', 'fatima.zahra@hospital.example'),
  (9, 'Daniel Kim', 'nurse', 4, '2024-05-13', 26.00, 'Harrogate', 'daniel.kim@hospital.example'),
  (10, 'Rosa Mendes', 'nurse', 5, '2010-10-04', 33.00, 'Bradford', 'rosa.mendes@hospital.example'),
  (11, 'Arthur Bell', 'doctor', 5, '2005-01-17', 79.00, 'Leeds', 'arthur.bell@hospital.example'),
  (12, 'Nadia Petrova', 'nurse', 6, '2022-07-25', 27.00, 'York', 'nadia.petrova@hospital.example');
insert into staff_skills (staff_id, skill) values
  (1, 'resuscitation'), (1, 'phlebotomy'), (3, 'phlebotomy'), (3, 'paediatric care'),
  (4, 'paediatric care'), (5, 'resuscitation'), (6, 'anaesthesia'), (10, 'chemotherapy'),
  (11, 'chemotherapy'), (12, 'resuscitation'), (9, 'midwifery');
insert into shifts (id, staff_id, ward_id, shift_date, kind, hours, status) values
  (1, 1, 1, '2026-11-02', 'early', 8, 'worked'),
  (2, 2, 1, '2026-11-02', 'late', 10, 'worked'),
  (3, 3, 2, '2026-11-03', 'night', 12, 'worked'),
  (4, 5, 3, '2026-11-05', 'night', 12, 'worked'),
  (5, 6, 3, '2026-11-09', 'early', 8, 'cancelled'),
  (6, 10, 5, '2026-11-12', 'late', 8, 'worked'),
  (7, 12, 6, '2026-11-20', 'night', 12, 'worked'),
  (8, 1, 1, '2026-11-24', 'night', 12, 'worked'),
  (9, 9, 4, '2026-11-27', 'early', 8, 'cancelled'),
  (10, 1, 1, '2026-12-04', 'early', 8, 'planned'),
  (11, 3, 2, '2026-12-05', 'late', 8, 'planned'),
  (12, 11, 5, '2026-12-07', 'early', 10, 'planned'),
  (13, 5, 3, '2026-12-09', 'night', 12, 'planned'),
  (14, 1, 1, '2026-12-14', 'late', 8, 'planned');
insert into leave_requests (id, staff_id, starts_on, ends_on, reason, approved_on) values
  (1, 1, '2026-12-20', '2026-12-27', 'holiday', '2026-11-10'),
  (2, 4, '2026-12-01', '2026-12-03', 'conference', '2026-11-18'),
  (3, 5, '2026-12-22', '2026-12-24', 'holiday', null),
  (4, 11, '2027-01-05', '2027-01-09', 'training', null),
  (5, 9, '2026-11-27', '2026-11-28', 'sickness', '2026-11-27');
