/** The modules of the pressroom() integration (src/integrations/virtual-modules.ts). */
declare module 'virtual:pressroom/config' {
  import type { PageOptions } from '../integrations/virtual-modules.ts';
  /** Local font files published with the site, for `@font-face`. */
  export const fontFaces: Array<{ family: string; url: string; format: string; weight: string | null; style: string | null }>;
  const options: PageOptions;
  export default options;
}
declare module 'virtual:pressroom/user-css' {
  /** Site URLs of the `theme.customCss` files, in order. */
  const urls: string[];
  export default urls;
}
declare module 'virtual:pressroom/components/Header' {
  const Header: typeof import('../components/Header.astro').default;
  export default Header;
}
declare module 'virtual:pressroom/components/Footer' {
  const Footer: typeof import('../components/Footer.astro').default;
  export default Footer;
}
declare module 'virtual:pressroom/components/ReleaseCard' {
  const ReleaseCard: typeof import('../components/ReleaseCard.astro').default;
  export default ReleaseCard;
}
