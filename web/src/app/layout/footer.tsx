import { HeartIcon } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';

const links = [
  { title: 'How It Works', to: paths.howItWorks.path },
  { title: 'Terms', to: paths.terms.path },
  { title: 'Guidelines', to: paths.guidelines.path },
  { title: 'Privacy', to: paths.privacy.path },
  { title: 'Partners', to: paths.partners.path },
];

export function Footer() {
  return (
    <footer className="border-t bg-white/70">
      <div className="mx-auto flex w-full max-w-6xl flex-col gap-4 px-4 py-8 sm:px-6 md:flex-row md:items-start md:justify-between">
        <div className="max-w-md space-y-2">
          <p className="flex items-center gap-1.5 font-bold">
            PrettyScore
            <HeartIcon className="size-4 fill-brand-600 text-brand-600" aria-hidden="true" />
          </p>
          <p className="text-sm text-muted-foreground">
            For fun only: scores are for entertainment and say nothing about your worth or how others see you.
          </p>
        </div>
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm font-medium">
            {links.map((link) => (
              <li key={link.to}>
                <Link
                  to={link.to}
                  className="rounded text-foreground/80 underline-offset-4 hover:text-brand-700 hover:underline"
                >
                  {link.title}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <p className="border-t border-border/60 px-4 py-4 text-center text-xs text-muted-foreground">
        © {new Date().getFullYear()} PrettyScore
      </p>
    </footer>
  );
}
