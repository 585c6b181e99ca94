/**
 * The app's one icon set: Lucide (https://lucide.dev), drawn as inline SVG so
 * icons take the text colour (`currentColor`) and work offline and in file://.
 *
 * Only the icons named below are imported, so the bundle carries just these
 * (not all ~1,600). To add one: import its node from 'lucide' and add a
 * kebab-case key to ICONS — the key is the name callers pass to `icon()`.
 */
import {
  createElement,
  type IconNode,
  AppWindow,
  ArrowLeft,
  ArrowRight,
  AtSign,
  Bell,
  Bold,
  BookOpen,
  Building2,
  Check,
  ChevronDown,
  ChevronLeft,
  ChevronRight,
  ChevronsDownUp,
  CircleAlert,
  CircleCheck,
  CircleDot,
  CircleX,
  Clock,
  Cloud,
  CloudOff,
  CodeXml,
  Command,
  Copy,
  CornerDownLeft,
  CreditCard,
  Ellipsis,
  ExternalLink,
  Eye,
  EyeOff,
  File,
  FilePlus,
  FileText,
  Folder,
  FolderPlus,
  GitCompare,
  GitMerge,
  GitPullRequest,
  Globe,
  GripVertical,
  Hash,
  Heading1,
  Heading2,
  Heading3,
  History,
  House,
  Image,
  Info,
  Italic,
  Key,
  Keyboard,
  Layers,
  Link,
  List,
  ListChecks,
  ListOrdered,
  LoaderCircle,
  Lock,
  LogOut,
  Mail,
  Menu,
  MessageSquare,
  MessageSquareText,
  Minus,
  Monitor,
  Moon,
  OctagonAlert,
  PanelLeft,
  PanelRight,
  Paperclip,
  Pencil,
  Plus,
  Puzzle,
  Quote,
  Redo2,
  RefreshCw,
  Reply,
  RotateCcw,
  Search,
  Send,
  Settings,
  Shield,
  Smile,
  SquareCode,
  Star,
  Strikethrough,
  Sun,
  Table,
  Terminal,
  ThumbsUp,
  Trash2,
  TriangleAlert,
  Undo2,
  Upload,
  User,
  UserPlus,
  Users,
  Wifi,
  WifiOff,
  X,
} from 'lucide';

export const ICONS = {
  'app-window': AppWindow,
  'arrow-left': ArrowLeft,
  'arrow-right': ArrowRight,
  'at-sign': AtSign,
  bell: Bell,
  bold: Bold,
  'book-open': BookOpen,
  building: Building2,
  check: Check,
  'chevron-down': ChevronDown,
  'chevron-left': ChevronLeft,
  'chevron-right': ChevronRight,
  'chevrons-down-up': ChevronsDownUp,
  'circle-alert': CircleAlert,
  'circle-check': CircleCheck,
  'circle-dot': CircleDot,
  'circle-x': CircleX,
  clock: Clock,
  cloud: Cloud,
  'cloud-off': CloudOff,
  code: CodeXml,
  'code-block': SquareCode,
  command: Command,
  copy: Copy,
  'corner-down-left': CornerDownLeft,
  'credit-card': CreditCard,
  ellipsis: Ellipsis,
  'external-link': ExternalLink,
  eye: Eye,
  'eye-off': EyeOff,
  file: File,
  'file-plus': FilePlus,
  'file-text': FileText,
  folder: Folder,
  'folder-plus': FolderPlus,
  'git-compare': GitCompare,
  'git-merge': GitMerge,
  'git-pull-request': GitPullRequest,
  globe: Globe,
  grip: GripVertical,
  hash: Hash,
  'heading-1': Heading1,
  'heading-2': Heading2,
  'heading-3': Heading3,
  history: History,
  home: House,
  image: Image,
  info: Info,
  italic: Italic,
  key: Key,
  keyboard: Keyboard,
  layers: Layers,
  link: Link,
  list: List,
  'list-checks': ListChecks,
  'list-ordered': ListOrdered,
  loader: LoaderCircle,
  lock: Lock,
  'log-out': LogOut,
  mail: Mail,
  menu: Menu,
  message: MessageSquare,
  'message-text': MessageSquareText,
  minus: Minus,
  monitor: Monitor,
  moon: Moon,
  'octagon-alert': OctagonAlert,
  'panel-left': PanelLeft,
  'panel-right': PanelRight,
  paperclip: Paperclip,
  pencil: Pencil,
  plus: Plus,
  puzzle: Puzzle,
  quote: Quote,
  redo: Redo2,
  refresh: RefreshCw,
  reply: Reply,
  'rotate-ccw': RotateCcw,
  search: Search,
  send: Send,
  settings: Settings,
  shield: Shield,
  smile: Smile,
  star: Star,
  strikethrough: Strikethrough,
  sun: Sun,
  table: Table,
  terminal: Terminal,
  'thumbs-up': ThumbsUp,
  trash: Trash2,
  'triangle-alert': TriangleAlert,
  undo: Undo2,
  upload: Upload,
  user: User,
  'user-plus': UserPlus,
  users: Users,
  wifi: Wifi,
  'wifi-off': WifiOff,
  x: X,
} satisfies Record<string, IconNode>;

export type IconName = keyof typeof ICONS;

export interface IconOptions {
  /** Pixel size of the square icon (default 16, the body text size). */
  size?: number;
  /** When set, the icon is announced with this name (role="img"); otherwise it is decorative. */
  label?: string;
  /** Extra classes besides `icon icon-<name>`. */
  class?: string;
  /** Stroke width (Lucide's default is 2; 1.75 reads lighter at 16 px). */
  strokeWidth?: number;
}

/**
 * An SVG icon. Decorative by default (aria-hidden, not focusable): put the
 * accessible name on the button that holds it (aria-label/title), or pass
 * `label` when the icon alone carries meaning.
 */
export function icon(name: IconName, opts: IconOptions = {}): SVGElement {
  const size = opts.size ?? 16;
  const strokeWidth = opts.strokeWidth ?? 1.75;
  // Building an SVG from lucide's node list costs far more than cloning one: a page tree of
  // 1,000 rows draws ~4,000 icons, so each (name, size, stroke) is built once and cloned.
  const key = `${name}|${size}|${strokeWidth}`;
  let template = templates.get(key);
  if (!template) {
    template = createElement(ICONS[name], {
      width: size,
      height: size,
      'stroke-width': strokeWidth,
      class: `icon icon-${name}`,
      focusable: 'false',
    });
    templates.set(key, template);
  }
  const svg = template.cloneNode(true) as SVGElement;
  if (opts.class) svg.classList.add(...opts.class.split(/\s+/).filter(Boolean));
  if (opts.label) {
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', opts.label);
  } else {
    svg.setAttribute('aria-hidden', 'true');
  }
  return svg;
}

/** Built icons by name, size and stroke width (cloned by `icon`). */
const templates = new Map<string, SVGElement>();

/** True when `name` is a known icon (for data-driven callers such as menus built from config). */
export function isIconName(name: string): name is IconName {
  return Object.prototype.hasOwnProperty.call(ICONS, name);
}
