/**
 * More Brazilian Portuguese words for English schema words, for schemas of people and places (schools,
 * lodging, fleets): read like `PT_WORDS`, the first word the label. Kept apart so that each table
 * stays one screen long.
 */
export const PT_MORE_WORDS: Readonly<Record<string, readonly string[]>> = {
  // things
  teacher: ['professor', 'professores', 'professora', 'professoras'], instructor: ['instrutor', 'instrutores', 'instrutora', 'instrutoras'],
  course: ['curso', 'cursos'], student: ['aluno', 'alunos', 'aluna', 'alunas', 'estudante', 'estudantes'], class: ['aula', 'aulas', 'turma', 'turmas'],
  enrollment: ['matrícula', 'matrículas'], guest: ['hóspede', 'hóspedes'], room: ['quarto', 'quartos', 'sala', 'salas'], rental: ['aluguel', 'aluguéis', 'locação', 'locações'],
  booking: ['reserva', 'reservas'], truck: ['caminhão', 'caminhões'], vehicle: ['veículo', 'veículos'], driver: ['motorista', 'motoristas'], trip: ['viagem', 'viagens'],
  patient: ['paciente', 'pacientes'], doctor: ['médico', 'médicos', 'médica', 'médicas'], appointment: ['consulta', 'consultas'], person: ['pessoa', 'pessoas'],
  // fields
  seats: ['lugares', 'assentos'], beds: ['camas', 'leitos'], capacity: ['capacidade'], 'capacity kg': ['capacidade'], plate: ['placa'],
  'bought on': ['data de compra', 'comprado', 'comprada', 'comprados', 'compradas'], bought: ['comprado', 'comprada', 'comprados', 'compradas'],
  'starts at': ['início', 'começa', 'começam'], starts: ['começa', 'começam'], 'started on': ['início', 'começou'], started: ['começou', 'começaram'],
  'ended on': ['fim', 'término'], ended: ['terminou', 'terminaram', 'encerrado', 'encerrada'], 'enrolled on': ['data de matrícula'],
  'nightly price': ['diária', 'preço por noite'], 'distance km': ['distância'], distance: ['distância'], 'birth year': ['ano de nascimento'],
};
