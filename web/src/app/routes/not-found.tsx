import { HomeIcon } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';

export default function NotFoundRoute() {
  const location = useLocation();

  useEffect(() => {
    // A warning, not an error: a mistyped address is not a fault of the app.
    console.warn('404 Error: User attempted to access non-existent route:', location.pathname);
  }, [location.pathname]);

  return (
    <div className="flex min-h-[60vh] items-center justify-center px-4 py-16">
      <PageTitle title="Page not found" />
      <div className="text-center">
        <p className="brand-gradient-text text-8xl font-black tracking-tighter sm:text-9xl">
          404
        </p>
        <h1 className="mt-2 text-2xl font-bold sm:text-3xl">
          Oops! Page not found
        </h1>
        <p className="mx-auto mt-3 max-w-sm text-muted-foreground">
          There is nothing at <code className="rounded bg-muted px-1.5 py-0.5 text-sm break-all">{location.pathname}</code>.
        </p>
        <Button asChild size="lg" className="mt-8">
          <Link to="/">
            <HomeIcon aria-hidden="true" />
            Return to Home
          </Link>
        </Button>
      </div>
    </div>
  );
}
