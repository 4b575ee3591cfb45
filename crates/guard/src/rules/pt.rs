//! Brazilian Portuguese: the ways a support message promises that a person will follow up.
//!
//! Written against normalised text (lowercase, no accents): "ligação" is `ligacao` here.

use super::{gap, one_of, some_of};

/// People and teams a customer can be promised contact from.
const PEOPLE: &[&str] = &[
    "equipes?",
    "times?",
    "setor(?:es)?",
    "departamentos?",
    "area",
    "pessoal",
    "atendentes?",
    "atendimento humano",
    "especialistas?",
    "consultor(?:a|es|as)?",
    "analistas?",
    "tecnicos?",
    "responsave(?:l|is)",
    "gerentes?",
    "gerencia",
    "supervis(?:or|ora|ores|oras|ao)",
    "coordena(?:dor|dora|dores|cao)",
    "gestor(?:a|es|as)?",
    "colegas?",
    "representantes?",
    "vendedor(?:a|es|as)?",
    "financeiro",
    "comercial",
    "juridico",
    "suporte",
    "sac",
    "ouvidoria",
    "lideranca",
    "diretoria",
    "alguem",
    "human[oa]s?",
    "nivel 2",
    "n2",
    "segundo nivel",
    "back ?office",
    "lider(?:es)?",
    "plantao",
    "pos-?venda",
    "chefe",
    "encarregad[oa]",
];

/// Other parties the assistant cannot reach from inside the chat: checking *with* them means
/// someone answers later.
const PARTIES: &[&str] = &[
    "estoque",
    "logistica",
    "expedicao",
    "fornecedor",
    "fabricante",
    "loja",
    "banco",
    "parceiro",
    "almoxarifado",
];

/// Words that may stand before a person or team ("um dos nossos", "alguém do").
const DETERMINERS: &[&str] = &[
    "o", "a", "os", "as", "um", "uma", "nosso", "nossa", "nossos", "nossas", "meu", "minha", "meus",
    "minhas", "seu", "sua", "algum", "alguma", "dos", "das", "do", "da", "de",
];

/// Pronouns standing for a person already named ("... e ele te chama").
const PRONOUNS: &[&str] = &["ele", "ela", "eles", "elas"];

/// Markers that turn the next verb into a commitment about later.
const FUTURE: &[&str] =
    &["vai", "vao", "ira", "irao", "deve", "devem", "devera", "deverao", "vai poder", "ha de", "hao de"];

/// Adverbs that may sit between a marker and its verb ("vai já te ligar").
const ADVERBS: &[&str] = &[
    "ja",
    "logo",
    "entao",
    "tambem",
    "pessoalmente",
    "rapidamente",
    "certamente",
    "em breve",
    "ainda hoje",
    "amanha",
    "hoje",
    "primeiro",
    "rapidinho",
    "aqui",
    "agora",
    "so",
];

/// The assistant speaking of itself, about to do something.
const FIRST_PERSON: &[&str] = &[
    "(?:eu )?(?:vou|vamos|irei|iremos)(?: precisar)?",
    "(?:eu )?preciso",
    "precisamos",
    "tenho que",
    "temos que",
    "deix[ae][ -](?:eu|me)",
    "eu",
    "a gente vai",
];

/// What a person or team does when following up, as infinitives (the first word conjugates).
const FOLLOW_UP: &[&str] = &[
    "entrar em contato",
    "fazer contato",
    "ligar",
    "telefonar",
    "chamar",
    "retornar",
    "dar (?:um )?retorno",
    "responder",
    "contatar",
    "procurar",
    "falar",
    "conversar",
    "atender",
    "assumir",
    "dar continuidade",
    "continuar",
    "acompanhar",
    "analisar",
    "avaliar",
    "verificar",
    "checar",
    "resolver",
    "cuidar",
    "tratar",
    "explicar",
    "orientar",
    "agendar",
    "visitar",
    "avisar",
    "escrever",
];

/// The follow-ups a pronoun may promise (a pronoun may stand for an order: "ele vai chegar").
const CONTACT: &[&str] = &[
    "entrar em contato",
    "fazer contato",
    "ligar",
    "telefonar",
    "chamar",
    "retornar",
    "dar (?:um )?retorno",
    "responder",
    "contatar",
    "procurar",
    "falar",
    "atender",
    "escrever",
];

/// Follow-ups in the irregular future ("fará contato", "trará uma resposta").
const FOLLOW_UP_LATER: &[&str] =
    &["far(?:a|ao) contato", "trar(?:a|ao) (?:uma |um )?(?:resposta|retorno|posicao)"];

/// Present-tense follow-ups that mean "soon" in a chat ("a equipe te liga amanhã").
const PRESENT_FOLLOW_UP: &[&str] = &[
    "entram? em contato", "fazem? contato", "(?:liga|ligam|falam?) (?:para|pra|com) voce", "retornam? o contato",
    "(?:te|lhe) (?:ligam?|chamam?|retornam?|procuram?|respondem?|atendem?|avisam?|da (?:um )?retorno|dao (?:um )?retorno)",
];

/// Checking something with someone ("verificar com a equipe").
const CONSULT: &[&str] = &[
    "verificar",
    "checar",
    "confirmar",
    "consultar",
    "conversar",
    "falar",
    "alinhar",
    "ver",
    "validar",
    "perguntar",
    "levar",
    "discutir",
    "conferir",
    "combinar",
    "tirar",
    "tratar",
    "resolver",
];

/// The same, in the present first person ("eu verifico com o pessoal").
const CONSULT_NOW: &[&str] = &[
    "verifico", "checo", "confirmo", "consulto", "converso", "falo", "alinho", "vejo", "valido", "pergunto",
    "levo", "discuto", "confiro", "combino", "trato", "resolvo",
];

/// Prepositions joining a check to the people it is checked with.
const WITH: &[&str] =
    &["com", "junto (?:a|ao|com)", "para", "pra", "pro", "ao", "aos", "a", "as", "na", "no"];

/// Handing the conversation or the request to someone else.
const FORWARD: &[&str] = &[
    "encaminhar",
    "transferir",
    "repassar",
    "passar",
    "direcionar",
    "levar",
    "enviar",
    "mandar",
    "pedir",
    "solicitar",
    "registrar",
    "anotar",
    "deixar (?:registrado|anotado)",
];
const FORWARD_DONE: &[&str] = &[
    "encaminhei",
    "transferi",
    "repassei",
    "passei",
    "direcionei",
    "levei",
    "enviei",
    "mandei",
    "pedi",
    "solicitei",
    "registrei",
    "anotei",
    "deixei (?:registrado|anotado)",
];
const FORWARD_DOING: &[&str] = &[
    "encaminhando",
    "transferindo",
    "repassando",
    "passando",
    "direcionando",
    "levando",
    "enviando",
    "pedindo",
];
const FORWARD_PASSIVE: &[&str] =
    &["encaminhad", "transferid", "repassad", "passad", "direcionad", "levad", "enviad", "escalad"];

/// Where a forwarded request goes.
const TO: &[&str] = &["para", "pra", "pro", "ao", "aos", "a", "as", "com", "junto (?:a|ao)", "que"];

/// Bringing someone in directly ("vou acionar o time responsável", "vou chamar um atendente").
const INVOLVE: &[&str] =
    &["acionar", "chamar", "consultar", "contatar", "envolver", "convocar", "notificar", "avisar", "pedir a"];

/// Inherently human contact the lead will receive ("você vai receber uma ligação").
const HUMAN_CONTACT: &[&str] = &[
    "ligacao",
    "retorno",
    "contato",
    "visita",
    "chamada",
    "atendimento humano",
    "posicao",
    "resposta da equipe",
];

/// Contact that may be automatic, human only when a person sends it ("um e-mail do financeiro").
const MEDIA: &[&str] = &["mensagem", "e-?mail", "resposta", "proposta", "sms", "whatsapp", "orcamento"];

/// `verb` conjugated by appending `ending` to its first word ("entrar em contato" → "entrara em contato").
fn conjugate(verbs: &[&str], endings: &[&str]) -> String {
    let forms: Vec<String> = verbs
        .iter()
        .flat_map(|verb| {
            let (head, rest) =
                verb.split_once(' ').map_or((*verb, String::new()), |(h, r)| (h, format!(" {r}")));
            endings.iter().map(move |ending| format!("{head}{ending}{rest}"))
        })
        .collect();
    format!("(?:{})", forms.join("|"))
}

fn people() -> String {
    format!("{}{}", some_of(DETERMINERS, 3), one_of(PEOPLE))
}

fn first_person() -> String {
    format!("{}(?: {})?", one_of(FIRST_PERSON), one_of(ADVERBS))
}

/// A person or team, then a future follow-up: "um atendente vai entrar em contato".
fn person_will_follow_up() -> String {
    format!(
        r"\b(?:{people}{gap} (?:{future}(?: {adverb})? (?:{clitic} )?{follow}|(?:(?:te|lhe) )?(?:{follow_later}|{irregular})|{present})|quem {future} (?:{clitic} )?{follow}{gap} (?:e|sera|vai ser) {people})\b",
        people = people(),
        gap = gap(6),
        future = one_of(FUTURE),
        adverb = one_of(ADVERBS),
        clitic = one_of(&["te", "lhe", "o", "a", "com voce"]),
        follow = one_of(FOLLOW_UP),
        follow_later = conjugate(FOLLOW_UP, &["a", "ao"]),
        irregular = one_of(FOLLOW_UP_LATER),
        present = one_of(PRESENT_FOLLOW_UP),
    )
}

/// "... e ele te chama", "eles vão te procurar".
fn pronoun_will_contact() -> String {
    let to_you = "(?:(?: para| pra| com)? (?:voce|o senhor|a senhora))";
    format!(
        r"\b{pronoun}(?: {adverb})? (?:{future}(?: {adverb})? (?:(?:te|lhe) {contact}|{contact}{to_you})|(?:te|lhe) {later}|{later}{to_you}|{present})\b",
        pronoun = one_of(PRONOUNS),
        adverb = one_of(ADVERBS),
        future = one_of(FUTURE),
        contact = one_of(CONTACT),
        later = conjugate(CONTACT, &["a", "ao"]),
        present = one_of(PRESENT_FOLLOW_UP),
    )
}

/// The assistant will check with people it cannot reach in the chat: "vou verificar com a equipe".
fn consult_people() -> String {
    format!(
        r"\b(?:{me} {consult}|{consult_later}|{consult_now}){gap} {with} {dets}{who}\b",
        me = first_person(),
        consult = one_of(CONSULT),
        consult_later = conjugate(CONSULT, &["ei", "emos"]),
        consult_now = one_of(CONSULT_NOW),
        gap = gap(4),
        with = one_of(WITH),
        dets = some_of(DETERMINERS, 3),
        who = one_of(&[one_of(PEOPLE).as_str(), one_of(PARTIES).as_str()]),
    )
}

/// The assistant will come back later by itself: "te retorno mais tarde", "volto a falar com você".
fn come_back_later() -> String {
    let later = "(?:assim que|quando|logo|em breve|mais tarde|depois|ainda hoje|amanha|o quanto antes|com)";
    let alternatives = [
        "(?:te|lhe) (?:retorno|retornamos|retornarei|retornaremos|ligo|ligamos|ligarei|ligaremos|chamo de volta|atualizo|atualizamos|procuro|mantenho (?:informad|atualizad)[oa]s?|mantemos (?:informad|atualizad)[oa]s?|(?:dou|damos|darei|daremos) (?:um |uma )?(?:retorno|posicao)|(?:trago|passo) (?:uma |um )?(?:resposta|posicao|retorno|novidades|atualizacao))".to_string(),
        format!("(?:te|lhe) respond(?:o|emos|erei|eremos) {later}"),
        "(?:te|lhe) (?:aviso|avisamos|avisarei|avisaremos|informo|informamos|falo|falamos)(?: (?:assim|quando|logo|em breve|mais tarde|depois|por aqui|por e-?mail|amanha|hoje|ainda|se|caso|o quanto antes)\\b|\\s*[.,;!?]|$)".to_string(),
        "(?:vou|vamos|irei|iremos) (?:te |lhe )?(?:retornar|dar (?:um )?retorno|ligar|telefonar|entrar em contato|fazer contato|manter (?:voce |o senhor |a senhora )?(?:informad|atualizad)[oa]s?|chamar de volta)".to_string(),
        format!("(?:vou|vamos|irei|iremos) (?:te |lhe )?(?:avisar|atualizar|responder|procurar) {later}"),
        "(?:te |lhe )?(?:retornarei|retornaremos|ligarei|ligaremos|entrarei em contato|entraremos em contato|farei contato|faremos contato)".to_string(),
        "(?:entro|entramos) em contato".to_string(),
        format!("(?:^|eu |ja |e |ai |logo )retorno {later}"),
        "(?:volto|voltamos|voltarei|voltaremos|vou voltar|vamos voltar) (?:a (?:falar|entrar em contato|te (?:chamar|procurar|escrever))|com (?:uma |a |mais )?(?:resposta|posicao|retorno|novidades|informacoes)|a falar com voce|aqui (?:assim|quando|com|para|pra))".to_string(),
    ];
    format!(r"\b(?:{})", alternatives.join("|"))
}

/// The request goes to someone else: "vou encaminhar para o responsável", "foi encaminhada ao time técnico".
fn forward_to_people() -> String {
    format!(
        r"\b(?:{me} (?:(?:te|lhe) )?{forward}|{forward_later}|estou (?:te |lhe )?{doing}|(?:ja |acabei de )?{done}|(?:foi|foram|esta sendo|estao sendo|sera|serao|ja foi) {passive}[oa]s?){gap} {to} {people}\b",
        me = first_person(),
        forward = one_of(FORWARD),
        forward_later = conjugate(FORWARD, &["ei", "emos"]),
        doing = one_of(FORWARD_DOING),
        done = one_of(FORWARD_DONE),
        passive = one_of(FORWARD_PASSIVE),
        gap = gap(5),
        to = one_of(TO),
        people = people(),
    )
}

/// Someone is brought in directly: "vou acionar o time responsável", "vou chamar um atendente".
fn involve_people() -> String {
    format!(
        r"\b(?:{me} {involve}|estou (?:acionando|chamando|envolvendo)) {people}\b",
        me = first_person(),
        involve = one_of(INVOLVE),
        people = people(),
    )
}

/// Escalating or opening a ticket is a hand-over to people by definition.
fn escalate() -> String {
    format!(
        r"\b(?:{me} escalar|escalarei|escalaremos|estou escalando|(?:ja )?escalei|{me} abrir (?:um |o )?(?:chamado|ticket)|(?:ja |acabei de )?(?:abri|abrirei|registrei) (?:um |o )?(?:chamado|ticket)|estou abrindo (?:um |o )?(?:chamado|ticket))\b",
        me = first_person(),
    )
}

/// The lead is told they will hear from a person: "você vai receber uma ligação de um consultor".
fn lead_will_hear() -> String {
    format!(
        r"\b(?:(?:{future}) (?:receber|ter)|recebera|receberao|tera|recebe)(?: {adverb})? (?:uma |um |o |a |seu |sua )?(?:{human}|{media}{gap} (?:de|da|do|dos|das|pel[oa]) {people})\b|\b(?:sera|serao|vai ser|vao ser) (?:contatad|procurad|chamad|atendid[oa]s? por|acompanhad)",
        future = one_of(FUTURE),
        adverb = one_of(ADVERBS),
        human = one_of(HUMAN_CONTACT),
        media = one_of(MEDIA),
        gap = gap(3),
        people = people(),
    )
}

/// The lead is asked to wait for a person: "aguarde o contato da nossa equipe".
fn wait_for_contact() -> String {
    r"\b(?:aguarde|aguardem|aguardar|aguarda|espere|esperem|esperar|fique no aguardo|fica no aguardo|ficar no aguardo|fique aguardando)(?: (?:o|a|um|uma|nosso|nossa|pelo|pela|do|da|seu|sua))* (?:contato|retorno|ligacao|chamada|resposta|visita|posicao)\b".to_string()
}

/// The Portuguese rules, named.
pub(super) fn rules() -> Vec<(&'static str, String)> {
    vec![
        ("pt.person_will_follow_up", person_will_follow_up()),
        ("pt.pronoun_will_contact", pronoun_will_contact()),
        ("pt.consult_people", consult_people()),
        ("pt.come_back_later", come_back_later()),
        ("pt.forward_to_people", forward_to_people()),
        ("pt.involve_people", involve_people()),
        ("pt.escalate", escalate()),
        ("pt.lead_will_hear", lead_will_hear()),
        ("pt.wait_for_contact", wait_for_contact()),
    ]
}
