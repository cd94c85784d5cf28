/**
 * People and roles in the built-in English ↔ pt-BR lexicon (`pt-lexicon.ts` reads the entries:
 * `singular[/plural][*][:m|:f]`, `*` a person noun with a feminine by rule).
 */
export const PT_LEXICON_PEOPLE: Readonly<Record<string, string>> = {
  person: 'pessoa', people: 'pessoa', staff: 'funcionário*, equipe:f', 'staff member': 'funcionário*', employee: 'funcionário*, empregado*',
  worker: 'trabalhador*', colleague: 'colega', member: 'membro', user: 'usuário*', customer: 'cliente', client: 'cliente', guest: 'hóspede, convidado*',
  visitor: 'visitante', volunteer: 'voluntário*', resident: 'morador*, residente', tenant: 'inquilino*', landlord: 'proprietário*', neighbor: 'vizinho*',
  citizen: 'cidadão/cidadãos*', friend: 'amigo*', child: 'criança', kid: 'criança', parent: 'responsável', family: 'família', contact: 'contato',
  player: 'jogador*, atleta', athlete: 'atleta', coach: 'treinador*, técnico*', referee: 'árbitro*, juiz/juízes', captain: 'capitão/capitães*', fan: 'torcedor*',
  goalkeeper: 'goleiro*', defender: 'zagueiro*, defensor*', midfielder: 'meio-campista, meia', forward: 'atacante', striker: 'atacante', winger: 'ponta',
  nurse: 'enfermeiro*', doctor: 'médico*', physician: 'médico*', surgeon: 'cirurgião/cirurgiões*', patient: 'paciente', pharmacist: 'farmacêutico*',
  porter: 'maqueiro*, porteiro*', dentist: 'dentista', therapist: 'terapeuta', caregiver: 'cuidador*', vet: 'veterinário*', veterinarian: 'veterinário*',
  paramedic: 'socorrista', midwife: 'parteira', receptionist: 'recepcionista', specialist: 'especialista', consultant: 'consultor*',
  teacher: 'professor*', instructor: 'instrutor*', student: 'aluno*, estudante', pupil: 'aluno*', tutor: 'tutor*', mentor: 'mentor*', trainer: 'treinador*',
  intern: 'estagiário*', trainee: 'estagiário*', researcher: 'pesquisador*', scientist: 'cientista', astronomer: 'astrônomo*', observer: 'observador*',
  engineer: 'engenheiro*', technician: 'técnico*', mechanic: 'mecânico*', operator: 'operador*', inspector: 'inspetor*', electrician: 'eletricista',
  brewer: 'cervejeiro*', cook: 'cozinheiro*', chef: 'chef, chefe de cozinha', waiter: 'garçom/garçons', baker: 'padeiro*', farmer: 'agricultor*',
  driver: 'motorista', pilot: 'piloto', passenger: 'passageiro*', traveler: 'viajante', traveller: 'viajante', courier: 'entregador*', rider: 'ciclista',
  manager: 'gerente', director: 'diretor*', supervisor: 'supervisor*', administrator: 'administrador*', admin: 'administrador*', owner: 'dono*, proprietário*',
  boss: 'chefe', leader: 'líder', president: 'presidente', secretary: 'secretário*', assistant: 'assistente', clerk: 'atendente', agent: 'agente, atendente',
  representative: 'representante', partner: 'parceiro*, sócio*', investor: 'investidor*', shareholder: 'acionista', founder: 'fundador*',
  buyer: 'comprador*', seller: 'vendedor*', salesperson: 'vendedor*', vendor: 'fornecedor*', supplier: 'fornecedor*', provider: 'prestador*', contractor: 'prestador*',
  sponsor: 'patrocinador*', donor: 'doador*', subscriber: 'assinante', reader: 'leitor*', writer: 'escritor*', author: 'autor*', editor: 'editor*',
  reviewer: 'revisor*', requester: 'solicitante', applicant: 'candidato*', candidate: 'candidato*', recruiter: 'recrutador*', approver: 'aprovador*',
  assignee: 'responsável', lawyer: 'advogado*', judge: 'juiz/juízes', artist: 'artista', musician: 'músico*', singer: 'cantor*', actor: 'ator/atores',
  speaker: 'palestrante', attendee: 'participante', participant: 'participante', organizer: 'organizador*', host: 'anfitrião/anfitriões*', guide: 'guia',
  soldier: 'soldado', officer: 'oficial, policial', firefighter: 'bombeiro*', accountant: 'contador*', analyst: 'analista', developer: 'desenvolvedor*',
  designer: 'designer/designers', programmer: 'programador*', librarian: 'bibliotecário*', borrower: 'leitor*', lender: 'credor*', debtor: 'devedor*',
};
