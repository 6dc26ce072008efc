import { lazy, Suspense } from 'react';
import { Link, useLocation } from 'react-router';
import { Logo } from '@/app/layout/logo';
import { getSidebarGroups } from '@/config/navigation';
import {
  Sidebar,
  SidebarGroup,
  SidebarGroupLabel,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  useSidebar,
} from '@/components/ui/sidebar';
import { useShowAdminLinks } from '@/hooks/use-show-admin-links';
import { useSession } from '@/lib/session';

// The count on Contact Requests, a signed-in user's link: loaded with it.
const ContactUnreadBadge = lazy(() =>
  import('@/app/layout/unread-badge').then((module) => ({ default: module.ContactUnreadBadge })),
);

export function AppSidebar() {
  const { session } = useSession();
  const { pathname } = useLocation();
  const { isMobile, setOpenMobile } = useSidebar();
  const groups = getSidebarGroups(session !== null, useShowAdminLinks());

  return (
    <Sidebar
      label="Site menu"
      description="Links to every part of PrettyScore."
      mobileHeader={<Logo onClick={() => setOpenMobile(false)} />}
    >
      {groups.map((group) => {
        const labelId = `sidebar-group-${group.label.toLowerCase()}`;
        return (
          <SidebarGroup key={group.label} role="group" aria-labelledby={labelId}>
            <SidebarGroupLabel id={labelId}>{group.label}</SidebarGroupLabel>
            <SidebarMenu>
              {group.items.map((item) => {
                const isActive = pathname === item.to;
                return (
                  <SidebarMenuItem key={item.to}>
                    <SidebarMenuButton asChild isActive={isActive} tooltip={item.title}>
                      <Link
                        to={item.to}
                        aria-current={isActive ? 'page' : undefined}
                        onClick={() => {
                          if (isMobile) setOpenMobile(false);
                        }}
                      >
                        <item.icon aria-hidden="true" />
                        <span>{item.title}</span>
                        {item.badge === 'contact-unread' ? (
                          <Suspense fallback={null}>
                            <ContactUnreadBadge />
                          </Suspense>
                        ) : null}
                      </Link>
                    </SidebarMenuButton>
                  </SidebarMenuItem>
                );
              })}
            </SidebarMenu>
          </SidebarGroup>
        );
      })}
    </Sidebar>
  );
}
