/**
 * The retrieval eval's material: seeded synthetic long conversations in English and Chinese,
 * with questions whose evidence turns are known (see eval/retrieval.ts). Deterministic: the
 * same seed and length give the same turns and questions.
 */
import { rng } from '../perf/workload.js';

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

/** A fact: slot values, its evidence turns (in order), the question, and near-miss turns reusing its names. */
export interface FactFamily {
  slots: Record<string, readonly string[]>;
  evidence: readonly string[][];
  /** Each question: its text, then the indexes of the evidence turns it asks about. */
  question: readonly (readonly [string, ...number[]])[];
  nearMiss: readonly string[];
}

export const EN: { facts: FactFamily[]; fillers: string[]; fill: Record<string, readonly string[]> } = {
  fill: {
    thing: ['the weather', 'that new cafe', 'my commute', 'the game last night', 'a podcast I like', 'the traffic', 'my neighbour', 'the news', 'lunch', 'the weekend'],
    feel: ['great', 'pretty tiring', 'kind of boring', 'really fun', 'a bit stressful', 'fine I guess'],
  },
  fillers: [
    'Honestly {thing} has been {feel} lately.', 'Did you hear about {thing}? It was {feel}.', 'Ha, yes, {thing} was {feel} for me too.',
    'I keep thinking about {thing}.', 'Not much new here, {thing} was {feel}.', 'Sounds {feel}! Tell me more some time.',
    'Anyway, how was your day?', 'I slept badly, {thing} kept me up.', 'We should catch up properly soon.', 'That reminds me of {thing}.',
  ],
  facts: [
    { slots: { pet: ['beagle', 'tabby cat', 'parrot', 'corgi'], name: ['Biscuit', 'Mochi', 'Pepper', 'Ziggy'] },
      evidence: [['We finally adopted a {pet} and called it {name}!'], ['{name} chewed through my charger cable this morning.']],
      question: [['~What did the family call the animal they took in?', 0], ['What did they name the {pet} they took home?', 0], ['Which cable did {name} chew up?', 1], ['Tell me about the pet {name}.', 0, 1]],
      nearMiss: ['My cousin also has a friend called {name}, funny coincidence.'] },
    { slots: { city: ['Lisbon', 'Denver', 'Osaka', 'Toronto'], job: ['design studio', 'hospital', 'bank', 'university'] },
      evidence: [['I accepted the offer, I am relocating to {city} in the spring.'], ['The {job} in {city} wants me to start on the first of May.']],
      question: [['~Where is the speaker moving for the job offer?', 0], ['Which city will the speaker relocate to?', 0], ['When does the new position at the {job} begin?', 1]],
      nearMiss: ['I watched a documentary about {city} last week.'] },
    { slots: { instrument: ['cello', 'ukulele', 'drum kit', 'violin'], teacher: ['Mrs. Alvarez', 'Tom', 'Mr. Ito', 'Grace'] },
      evidence: [['I bought a second-hand {instrument} on Saturday.'], ['My music lessons with {teacher} are on Thursday evenings.'], ['I practiced the {instrument} for two hours, my fingers hurt.']],
      question: [['~What did they purchase second hand at the weekend?', 0], ['Did they buy a used instrument or a new one?', 0], ['On which evening are the music lessons?', 1], ['How long did they practise the {instrument}?', 2]],
      nearMiss: ['{teacher} from work brought cake today.'] },
    { slots: { race: ['half marathon', '10k run', 'triathlon', 'marathon'], month: ['October', 'June', 'March', 'September'] },
      evidence: [['I signed up for the {race} in {month}.'], ['Training is going well, I ran 15 kilometres yesterday.'], ['I finished the {race} in under two hours!']],
      question: [['~Which running event did they register for?', 0], ['Which race did they sign up for?', 0], ['How far did they run while training?', 1], ['What was their finishing time in the {race}?', 2]],
      nearMiss: ['My brother hates running, he says {month} is too cold anyway.'] },
    { slots: { allergy: ['peanuts', 'shellfish', 'gluten', 'dairy'] },
      evidence: [['The doctor confirmed I am allergic to {allergy}.']],
      question: [['~Which food must the speaker avoid after seeing a physician?', 0], ['What is the speaker allergic to, according to the doctor?', 0]],
      nearMiss: ['The recipe called for {allergy} but I skipped that part.'] },
    { slots: { car: ['hybrid hatchback', 'electric SUV', 'old pickup truck', 'red convertible'], price: ['twelve thousand', 'nine thousand', 'thirty thousand', 'five thousand'] },
      evidence: [['We got a {car} for {price} dollars.'], ['The {car} needed new brakes already, annoying.']],
      question: [['~How much was the vehicle they purchased?', 0], ['How many dollars did the {car} cost?', 0], ['What repair did the car need?', 1]],
      nearMiss: ['A {car} almost hit me on the crosswalk.'] },
    { slots: { book: ['Dune', 'Middlemarch', 'The Hobbit', 'Beloved'], club: ['book club', 'reading circle', 'library group', 'literature meetup'] },
      evidence: [['Our {club} is reading {book} this month.'], ['I am halfway through {book}, the ending chapters are slow.']],
      question: [['~What book are the readers discussing?', 0], ['Which novel is the {club} reading?', 0], ['How far into {book} is the speaker?', 1]],
      nearMiss: ['There is a movie version of {book} I never saw.'] },
    { slots: { sister: ['Maya', 'Lena', 'Priya', 'Sofia'], baby: ['a baby boy', 'twins', 'a baby girl', 'a son'] },
      evidence: [['My sister {sister} is expecting, due in August.'], ['{sister} gave birth to {baby} last night, everyone is healthy!']],
      question: [['When is the sister due?', 0], ['~Did the speaker become an aunt or uncle, and of whom?', 1], ['What did {sister} give birth to?', 1]],
      nearMiss: ['{sister} recommended a new dentist to me.'] },
    { slots: { hobby: ['pottery', 'rock climbing', 'watercolor painting', 'salsa dancing'], place: ['community center', 'downtown studio', 'gym near work', 'art school'] },
      evidence: [['I started taking {hobby} classes at the {place}.'], ['My {hobby} teacher said I am improving quickly.']],
      question: [['Where does the speaker take {hobby} classes?', 0], ['~Which new pastime did they take up?', 0], ['What did the teacher say about their progress?', 1]],
      nearMiss: ['The {place} was closed for repairs on Monday.'] },
    { slots: { trip: ['Iceland', 'Peru', 'Vietnam', 'Morocco'], with: ['my partner', 'two old friends', 'my parents', 'my roommate'] },
      evidence: [['We booked flights to {trip} for the holidays.'], ['I am going with {with}, we leave on December 20.'], ['Just landed back from {trip}, exhausted but happy.']],
      question: [['~Where did they go on vacation?', 0, 2], ['Where are they flying for the holidays?', 0], ['Who is going on the holiday trip, and when do they leave?', 1], ['How did they feel coming back from {trip}?', 2]],
      nearMiss: ['I tried a restaurant with food from {trip}, it was decent.'] },
  ],
};

export const ZH: typeof EN = {
  fill: {
    thing: ['今天的天气', '楼下新开的咖啡店', '上班路上的交通', '昨晚的比赛', '最近听的播客', '邻居家装修', '午饭', '这个周末'],
    feel: ['挺好的', '有点累', '很无聊', '特别有意思', '压力有点大', '还行吧'],
  },
  fillers: [
    '说实话{thing}最近{feel}。', '你听说{thing}了吗？{feel}。', '哈哈，{thing}对我来说也{feel}。', '我一直在想{thing}。',
    '没什么新鲜事，{thing}{feel}。', '听起来{feel}，改天细说。', '对了，你今天过得怎么样？', '昨晚没睡好，因为{thing}。', '我们找时间好好聚聚吧。',
  ],
  facts: [
    { slots: { pet: ['柯基犬', '橘猫', '鹦鹉', '金毛'], name: ['豆豆', '年糕', '小七', '可乐'] },
      evidence: [['我们终于领养了一只{pet}，取名叫{name}！'], ['{name}今天早上把我的充电线咬断了。']],
      question: [['~他们家新来的小动物叫啥？', 0], ['他们领养的{pet}叫什么名字？', 0], ['{name}咬坏了什么东西？', 1]], nearMiss: ['我同事的孩子小名也叫{name}，真巧。'] },
    { slots: { city: ['成都', '杭州', '深圳', '西安'], job: ['设计公司', '医院', '银行', '大学'] },
      evidence: [['我接受了那份工作，春天要搬到{city}去了。'], ['{city}那家{job}希望我五月一号入职。']],
      question: [['~为了新职位要迁往何处？', 0], ['说话人要搬去哪个城市工作？', 0], ['新工作什么时候入职？', 1]], nearMiss: ['上周看了一部关于{city}的纪录片。'] },
    { slots: { instrument: ['大提琴', '尤克里里', '架子鼓', '小提琴'], teacher: ['王老师', '李老师', '陈老师', '张老师'] },
      evidence: [['周六我买了一把二手{instrument}。'], ['我每周四晚上跟{teacher}上课。'], ['今天练了两个小时{instrument}，手指好疼。']],
      question: [['~周末购入了什么旧东西？', 0], ['说话人买了什么二手乐器？', 0], ['每周哪天晚上上课？', 1], ['练{instrument}练了多久？', 2]], nearMiss: ['{teacher}今天给大家带了蛋糕。'] },
    { slots: { race: ['半程马拉松', '十公里跑', '铁人三项', '全程马拉松'], month: ['十月', '六月', '三月', '九月'] },
      evidence: [['我报名了{month}的{race}。'], ['训练很顺利，昨天跑了十五公里。'], ['我不到两小时就跑完了{race}！']],
      question: [['~他们参加了什么赛事？', 0], ['他们报名了哪个比赛？', 0], ['训练时跑了多少公里？', 1], ['{race}用了多长时间跑完？', 2]], nearMiss: ['我哥讨厌跑步，说{month}太冷了。'] },
    { slots: { allergy: ['花生', '海鲜', '麸质', '牛奶'] },
      evidence: [['医生确认我对{allergy}过敏。']],
      question: [['~看病后说话人不能吃什么？', 0], ['医生说说话人对什么过敏？', 0]], nearMiss: ['菜谱里要放{allergy}，我没放。'] },
    { slots: { car: ['混动两厢车', '电动SUV', '旧皮卡', '红色敞篷车'], price: ['八万', '十二万', '二十万', '五万'] },
      evidence: [['我们花{price}块买了一辆{car}。'], ['那辆{car}刹车已经要换了，真烦。']],
      question: [['~购置的车辆价格是多少？', 0], ['买{car}花了多少钱？', 0], ['车需要修什么？', 1]], nearMiss: ['一辆{car}差点在斑马线上撞到我。'] },
    { slots: { sister: ['小雅', '晓琳', '佳佳', '思思'], baby: ['一个男孩', '一对双胞胎', '一个女孩', '一个儿子'] },
      evidence: [['我妹妹{sister}怀孕了，预产期在八月。'], ['{sister}昨晚生了{baby}，母子平安！']],
      question: [['~妹妹什么时候分娩？', 0], ['妹妹的预产期是什么时候？', 0], ['{sister}生了男孩还是女孩？', 1]], nearMiss: ['{sister}给我推荐了一个牙医。'] },
    { slots: { trip: ['冰岛', '秘鲁', '越南', '摩洛哥'], with: ['我对象', '两个老朋友', '我爸妈', '我室友'] },
      evidence: [['我们订了去{trip}的机票，假期去玩。'], ['我和{with}一起去，十二月二十号出发。'], ['刚从{trip}回来，累但是很开心。']],
      question: [['~他们度假去了哪个国家？', 0, 2], ['假期他们坐飞机去哪里？', 0], ['和谁一起去旅行，哪天出发？', 1], ['从{trip}回来感觉怎么样？', 2]], nearMiss: ['我试了一家{trip}菜馆，还不错。'] },
  ],
};

function fill(template: string, slots: Record<string, string>, r: Rand, lang: typeof EN): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => slots[k] ?? pick(r, lang.fill[k] ?? ['']));
}

/** `paraphrase`: the question shares no content word with its evidence (written with a leading `~`). */
export interface Question { text: string; evidence: number[]; paraphrase: boolean }

/** One conversation: its turns and its questions (evidence as turn indexes). */
export function conversation(lang: typeof EN, seed: number, TURNS: number): { turns: string[]; questions: Question[] } {
  const r = rng(seed);
  const speakers = lang === EN ? ['Alex', 'Sam'] : ['小林', '阿杰'];
  const slotsTaken = new Set<number>();
  const turns: (string | null)[] = Array(TURNS).fill(null);
  const place = (from: number, to: number): number => {
    for (;;) {
      const i = from + Math.floor(r() * Math.max(1, to - from));
      if (i < TURNS && !slotsTaken.has(i)) return slotsTaken.add(i), i;
    }
  };
  const questions: Question[] = [];
  for (const family of lang.facts) {
    const slots = Object.fromEntries(Object.entries(family.slots).map(([k, vs]) => [k, pick(r, vs)]));
    // Evidence turns in order through the conversation.
    const span = TURNS / family.evidence.length;
    const evidence = family.evidence.map((alts, e) => {
      const i = place(Math.floor(e * span), Math.floor((e + 1) * span));
      turns[i] = fill(pick(r, alts), slots, r, lang);
      return i;
    });
    for (const nm of family.nearMiss) for (let k = 0; k < 2; k++) turns[place(0, TURNS)] = fill(nm, slots, r, lang);
    for (const [q, ...which] of family.question) {
      questions.push({ text: fill(q.replace(/^~/, ''), slots, r, lang), evidence: which.map((e) => evidence[e]), paraphrase: q.startsWith('~') });
    }
  }
  const out = turns.map((t, i) => `${speakers[i % 2]}: ${t ?? fill(pick(r, lang.fillers), {}, r, lang)}`);
  return { turns: out, questions };
}
