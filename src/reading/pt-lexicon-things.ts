/**
 * Things, places, events and measures in the built-in English ↔ pt-BR lexicon (`pt-lexicon.ts` reads
 * the entries: `singular[/plural][*][:m|:f]`).
 */
export const PT_LEXICON_THINGS: Readonly<Record<string, string>> = {
  // organisations and places
  team: 'equipe:f', club: 'clube', league: 'liga', company: 'empresa', organization: 'organização', department: 'departamento', unit: 'unidade',
  office: 'escritório', branch: 'filial', store: 'loja', shop: 'loja', warehouse: 'armazém, depósito', factory: 'fábrica', farm: 'fazenda', school: 'escola',
  university: 'universidade', library: 'biblioteca', museum: 'museu', hospital: 'hospital', clinic: 'clínica', ward: 'ala, enfermaria', pharmacy: 'farmácia',
  lab: 'laboratório', laboratory: 'laboratório', hotel: 'hotel', restaurant: 'restaurante', bakery: 'padaria', kitchen: 'cozinha', bar: 'bar', brewery: 'cervejaria',
  observatory: 'observatório', venue: 'local, estádio', stadium: 'estádio', pitch: 'campo, gramado', court: 'quadra', gym: 'academia', park: 'parque',
  building: 'prédio, edifício', floor: 'andar', room: 'quarto, sala', apartment: 'apartamento', house: 'casa', garage: 'garagem', depot: 'depósito',
  airport: 'aeroporto', station: 'estação', port: 'porto', stop: 'parada', route: 'rota', road: 'estrada', street: 'rua', zone: 'zona', area: 'área',
  sector: 'setor', region: 'região:f', district: 'distrito, bairro', neighborhood: 'bairro', city: 'cidade', town: 'cidade', country: 'país', site: 'local',
  location: 'local, localização', place: 'lugar', address: 'endereço', planet: 'planeta:m', star: 'estrela', galaxy: 'galáxia', nebula: 'nebulosa',
  comet: 'cometa:m', asteroid: 'asteroide', moon: 'lua', satellite: 'satélite', constellation: 'constelação', sky: 'céu', cluster: 'aglomerado',
  // things and assets
  product: 'produto', item: 'item', part: 'peça', component: 'componente', material: 'material', tool: 'ferramenta', machine: 'máquina', device: 'dispositivo',
  equipment: 'equipamento', instrument: 'instrumento', telescope: 'telescópio', camera: 'câmera', lens: 'lente:f', mirror: 'espelho', sensor: 'sensor',
  computer: 'computador', printer: 'impressora', server: 'servidor', vehicle: 'veículo', car: 'carro', truck: 'caminhão', van: 'van', bus: 'ônibus',
  train: 'trem', plane: 'avião', boat: 'barco', ship: 'navio', bike: 'bicicleta', bicycle: 'bicicleta', seat: 'assento, lugar', bed: 'leito, cama',
  tank: 'tanque', barrel: 'barril', keg: 'barril', bottle: 'garrafa', box: 'caixa', package: 'pacote, embalagem', container: 'contêiner', pallet: 'palete',
  book: 'livro', copy: 'exemplar, cópia', document: 'documento', file: 'arquivo', folder: 'pasta', photo: 'foto:f', image: 'imagem', video: 'vídeo',
  song: 'música', album: 'álbum', movie: 'filme', film: 'filme', article: 'artigo', post: 'publicação', page: 'página', chapter: 'capítulo',
  card: 'cartão', key: 'chave:f', uniform: 'uniforme', shirt: 'camisa', ball: 'bola', trophy: 'troféu', medal: 'medalha', award: 'prêmio', prize: 'prêmio',
  // food and brewing
  recipe: 'receita', ingredient: 'ingrediente', batch: 'lote', beer: 'cerveja', wine: 'vinho', drink: 'bebida', dish: 'prato', meal: 'refeição',
  menu: 'cardápio', hop: 'lúpulo', malt: 'malte', yeast: 'levedura, fermento', adjunct: 'adjunto', grain: 'grão/grãos', sugar: 'açúcar', water: 'água',
  fruit: 'fruta', flavor: 'sabor', flavour: 'sabor', style: 'estilo', fermentation: 'fermentação',
  // work, events and records
  project: 'projeto', task: 'tarefa', job: 'trabalho, vaga', shift: 'turno, plantão', schedule: 'escala, agenda', leave: 'licença, folga', absence: 'ausência',
  request: 'pedido, solicitação', 'leave request': 'pedido de licença, pedido de folga', approval: 'aprovação', vacation: 'férias/férias:f', holiday: 'feriado',
  meeting: 'reunião:f', event: 'evento', session: 'sessão', observation: 'observação', target: 'alvo', appointment: 'consulta', visit: 'visita',
  match: 'partida, jogo', game: 'jogo', fixture: 'partida', tournament: 'torneio', season: 'temporada', round: 'rodada', goal: 'gol/gols', result: 'resultado',
  sponsorship: 'patrocínio', contract: 'contrato', transfer: 'transferência', injury: 'lesão', training: 'treino', lesson: 'aula', course: 'curso', exam: 'exame, prova',
  test: 'teste, exame', question: 'pergunta', answer: 'resposta', survey: 'pesquisa', review: 'avaliação', rating: 'avaliação, nota', comment: 'comentário',
  treatment: 'tratamento', diagnosis: 'diagnóstico', prescription: 'prescrição', medication: 'medicamento', medicine: 'remédio, medicamento',
  surgery: 'cirurgia', admission: 'internação', allergy: 'alergia', symptom: 'sintoma:m', vaccine: 'vacina', sample: 'amostra', specialty: 'especialidade',
  skill: 'habilidade', repair: 'reparo, conserto', maintenance: 'manutenção', inspection: 'inspeção', incident: 'incidente', alert: 'alerta:m', issue: 'problema:m',
  reading: 'leitura', measurement: 'medição', report: 'relatório', record: 'registro', entry: 'registro, entrada', log: 'registro', note: 'nota, observação',
  order: 'pedido', sale: 'venda', purchase: 'compra', delivery: 'entrega', shipment: 'remessa, envio', invoice: 'fatura', payment: 'pagamento', refund: 'reembolso',
  fee: 'taxa', tax: 'imposto', discount: 'desconto', coupon: 'cupom', bill: 'conta', receipt: 'recibo', transaction: 'transação', expense: 'despesa',
  salary: 'salário', budget: 'orçamento', quote: 'orçamento', account: 'conta', loan: 'empréstimo', booking: 'reserva', reservation: 'reserva',
  rental: 'aluguel/aluguéis, locação', trip: 'viagem', flight: 'voo', ticket: 'ingresso, bilhete', subscription: 'assinatura', plan: 'plano', license: 'licença',
  campaign: 'campanha', channel: 'canal', group: 'grupo', category: 'categoria', tag: 'etiqueta', label: 'rótulo', list: 'lista', message: 'mensagem',
  // measures and attributes
  name: 'nome', title: 'título', code: 'código', number: 'número', description: 'descrição', kind: 'tipo', type: 'tipo', position: 'posição', role: 'função, cargo',
  height: 'altura', width: 'largura', length: 'comprimento', depth: 'profundidade', weight: 'peso', size: 'tamanho', volume: 'volume', capacity: 'capacidade',
  age: 'idade', birth: 'nascimento', 'birth date': 'data de nascimento', gender: 'gênero', nationality: 'nacionalidade', origin: 'origem', language: 'idioma',
  temperature: 'temperatura', duration: 'duração', distance: 'distância', speed: 'velocidade', level: 'nível', rate: 'taxa', percentage: 'porcentagem',
  price: 'preço', cost: 'custo', amount: 'valor', total: 'total', quantity: 'quantidade', stock: 'estoque', score: 'pontuação', rank: 'posição',
  attendance: 'público, presença', aperture: 'abertura', magnitude: 'magnitude', brightness: 'brilho', strength: 'força', color: 'cor', colour: 'cor',
  date: 'data', day: 'dia', week: 'semana', month: 'mês', year: 'ano', hour: 'hora', minute: 'minuto', night: 'noite', morning: 'manhã', evening: 'noite',
  deadline: 'prazo', period: 'período', reason: 'motivo', surname: 'sobrenome', nickname: 'apelido', phone: 'telefone', email: 'e-mail', website: 'site',
};
