/**
 * The demo's router vocabulary (YAML), English and Brazilian Portuguese. The `data` sections name the
 * demo's managers, fields and values (Portuguese words, English synonyms); the app reader generates the
 * English manager, field and value words from the schema and the data, and merges this file over them.
 */
export const demoVocabularyYaml = `settings:
  language: en
languages:
  en:
    tools:
      get_order:
        triggers: [order, orders, show order, look up order, order status]
        example: show me order 4411
      list_events:
        triggers: [events, calendar, meetings, agenda, schedule]
        label: list events
        example: what is on my calendar tomorrow afternoon
      charge_card:
        triggers: [charge, bill]
        example: charge order 4411 40.00
      refund_order:
        triggers: [refund]
        example: refund 10.00 on order 4411
      send_receipt:
        triggers: [send the receipt, send receipt, receipt, email the receipt]
        example: send the receipt for order 4411 to ana@example.com
      create_project:
        triggers: [create a project, create project, new project, make a project]
        example: create a project called Alpha
      add_task:
        triggers: [add a task, add task, new task, create a task]
        example: add a task "Write the brief" to project 12
    parameters:
      order_id: { cues: [order, orders, order number, order no], label: order id }
      amount: { cues: [amount, amount of, the amount is], label: amount }
      email: { cues: [email, e-mail, email address], label: email }
      name: { cues: [called, named, name], label: name }
      title: { cues: [called, titled, title], label: title }
      project_id: { cues: [project, project id], label: project }
      due: { cues: [due, due on, due by], label: due date }
      time_min: { label: start }
      time_max: { label: end }
    dates:
      availability: [am i free, am i available, am i busy, do i have anything]
    data:
      managers:
        Part: [part, parts, component, components]
        Material: [material, materials]
        Task: [task, tasks, to-do, to-dos, todo, todos]
        Project: [project, projects]
        OrderLine: [order line, order lines, line item, line items]
      fields:
        Material.density: [density, densities]
        Part.unitPrice: [price, unit price, cost]
        Part.stock: [stock, units in stock, in stock]
        Project.budget: [budget]
        Project.owner: [owner, owners, owns, owned by]
        Order.total: [total, order total]
        OrderLine.quantity: [quantity, qty]
      values:
        Material.name: { Aluminum: [aluminium, aluminum] }
        Task.done: { 'false': [open, pending, unfinished, not done, to do], 'true': [done, finished, completed, closed] }
        Project.status: { on_hold: [on hold, paused], done: [finished, completed] }
  pt-BR:
    tools:
      get_order:
        triggers: [pedido, pedidos, mostre o pedido, ver o pedido, consultar o pedido]
        label: consultar o pedido
        example: mostre o pedido 4411
      list_events:
        triggers: [eventos, agenda, compromissos, reunioes, calendario]
        label: listar os eventos
        example: o que tenho na agenda amanhã à tarde
      charge_card:
        triggers: [cobre, cobrar, cobra, cobranca]
        label: cobrar o cartão
        example: cobre o pedido 4411 no valor de 40,00
      refund_order:
        triggers: [reembolse, reembolsar, estorne, estornar, reembolso, estorno]
        label: reembolsar o pedido
        example: reembolse 10,00 do pedido 4411
      send_receipt:
        triggers: [envie o recibo, mande o recibo, enviar o recibo, recibo]
        label: enviar o recibo
        example: envie o recibo do pedido 4411 para ana@example.com
      create_project:
        triggers: [crie um projeto, criar um projeto, crie o projeto, novo projeto, cria um projeto]
        label: criar o projeto
        example: crie um projeto chamado Alpha
      add_task:
        triggers: [adicione uma tarefa, adicionar uma tarefa, adiciona uma tarefa, nova tarefa, crie uma tarefa]
        label: adicionar a tarefa
        example: adicione a tarefa "Escrever o resumo" ao projeto 12
    parameters:
      order_id: { cues: [pedido, pedidos, numero do pedido], label: pedido }
      amount: { cues: [valor, quantia, no valor de, o valor e], label: valor }
      email: { cues: [email, e-mail, endereco de email], label: e-mail }
      name: { cues: [chamado, chamada, com o nome, de nome, nome], label: nome }
      title: { cues: [chamada, chamado, com o titulo, titulo], label: título }
      project_id: { cues: [projeto, ao projeto, no projeto], label: projeto }
      due: { cues: [prazo, para o dia, ate], label: prazo }
      time_min: { label: início }
      time_max: { label: fim }
    dates:
      availability: [estou livre, to livre, estou disponivel, estou ocupado, tenho algo]
    data:
      managers:
        Part: [peça, peças, componente, componentes]
        Material: [material, materiais]
        Task: [tarefa, tarefas]
        Project: [projeto, projetos]
        Order: [pedido, pedidos]
        OrderLine: [linha de pedido, linhas de pedido, item de pedido, itens de pedido]
      fields:
        Material.density: [densidade, densidades]
        Part.unitPrice: [preço, preço unitário, custo]
        Part.stock: [estoque, em estoque]
        Project.budget: [orçamento]
        Project.owner: [dono, responsável]
        Project.status: [situação, status]
        Order.total: [total, valor total]
        Order.status: [situação, status]
        OrderLine.quantity: [quantidade]
      values:
        Material.name:
          Steel: [aço]
          Aluminum: [alumínio]
          Cobalt: [cobalto]
          Copper: [cobre]
          Titanium: [titânio]
          Brass: [latão]
          Nylon: [náilon]
        Task.done:
          'false': [aberta, abertas, em aberto, pendente, pendentes, não concluída, não concluídas]
          'true': [concluída, concluídas, feita, feitas, finalizada, finalizadas, fechada, fechadas]
        Project.status:
          planning: [em planejamento, planejamento]
          active: [ativo, ativos, ativa, ativas, em andamento]
          on_hold: [pausado, pausados, em espera, parado, parados, suspenso, suspensos]
          done: [concluído, concluídos, encerrado, encerrados, finalizado, finalizados]
        Order.status:
          pending: [pendente, pendentes, aguardando pagamento]
          paid: [pago, pagos]
          shipped: [enviado, enviados, despachado, despachados]
          cancelled: [cancelado, cancelados]
`;
