import { Anchor, Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { LoadingState, useCan } from '@atrium/sdk';
import {
  accessAssignmentsRoute,
  accessGroupsRoute,
  accessImportExportRoute,
  accessPoliciesRoute,
  accessRolesRoute,
  accessUsersRoute,
} from '../routes.js';

interface Section {
  title: string;
  description: string;
  href: string;
  /** What the section's list needs (the same permission the access service checks). */
  resource: string;
  action: string;
}

export const ACCESS_SECTIONS: Section[] = [
  {
    title: 'Access policies',
    description: 'Statements of what roles may do, system and custom.',
    href: accessPoliciesRoute.link({}),
    resource: 'access:policy',
    action: 'read',
  },
  {
    title: 'Roles',
    description: 'The roles users act in.',
    href: accessRolesRoute.link({}),
    resource: 'access:role',
    action: 'read',
  },
  {
    title: 'Assignments',
    description: 'Which policies a role has, and which users and groups hold a role.',
    href: accessAssignmentsRoute.link({}),
    resource: 'access:assignment',
    action: 'read',
  },
  {
    title: 'Users',
    description: 'The users that hold roles, with their roles.',
    href: accessUsersRoute.link({}),
    resource: 'access:directory',
    action: 'read',
  },
  {
    title: 'Groups',
    description: 'The groups that hold roles, with their roles.',
    href: accessGroupsRoute.link({}),
    resource: 'access:directory',
    action: 'read',
  },
  {
    title: 'Import and export',
    description: 'Move roles, policies and assignments between installations.',
    href: accessImportExportRoute.link({}),
    resource: 'access:transfer',
    action: 'export',
  },
];

/** The answers for every section, in order (a fixed list: the hooks run in the same order each time). */
function useSectionAnswers() {
  const [policies, roles, assignments, users, groups, transfer] = ACCESS_SECTIONS;
  return [
    useCan(policies!.resource, policies!.action),
    useCan(roles!.resource, roles!.action),
    useCan(assignments!.resource, assignments!.action),
    useCan(users!.resource, users!.action),
    useCan(groups!.resource, groups!.action),
    useCan(transfer!.resource, transfer!.action),
  ];
}

/** access:index — the module's overview: a card for each section the role may open. */
export default function AccessIndexPage() {
  const answers = useSectionAnswers();
  const pending = answers.some((a) => a.pending);
  const open = ACCESS_SECTIONS.filter((_, i) => answers[i]!.allowed);
  return (
    <Stack>
      <Title order={1}>Access</Title>
      <Text>Who may do what: policies of statements, the roles that hold them, and who holds each role.</Text>
      {pending ? (
        <LoadingState rows={3} label="Loading" />
      ) : open.length === 0 ? (
        <Text>Your role may not open any part of Access.</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} component="ul" aria-label="Access sections" p={0} m={0}>
          {open.map((section) => (
            <Card key={section.title} withBorder component="li" style={{ listStyle: 'none' }}>
              <Anchor component={Link} to={section.href} fw={600}>
                {section.title}
              </Anchor>
              <Text size="sm" c="dimmed">
                {section.description}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
