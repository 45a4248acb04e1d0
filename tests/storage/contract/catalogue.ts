import { describe, expect, test } from 'bun:test';
import { newId } from '../../../src/core/ids.ts';
import { UniqueViolation, type ProviderRecord } from '../../../src/ports/storage/index.ts';
import {
  MINUTE,
  T0,
  WEEKEND_HOURS,
  aWorkspace,
  aService,
  aProvider,
  aCustomField,
  seed,
  addProvider,
  sortedIds,
  withSortedProviders,
  withSortedServices,
  caught,
} from './fixtures.ts';
import { storage } from './database.ts';

/** CatalogueStore: services, providers and custom fields. */
export function catalogueContract() {
  describe('services', () => {
    test('createService stores the record with its providerIds; getService returns it as written', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const first = await addProvider(storage, ws);
      const second = await addProvider(storage, ws, { name: 'Sam' });
      const srv = aService(ws, {
        providerIds: [first.id, second.id].sort(),
        description: null,
        category: null,
        maxAdvance: null,
        depositMinor: 1000,
        slotInterval: 15,
        capacity: 4,
        bufferTime: 10,
        order: 3,
        active: false,
      });
      await storage.createService(srv);
      expect(withSortedProviders(await storage.getService(ws.id, srv.id))).toEqual(srv);
      const bare = aService(ws, { name: 'Consultation' });
      await storage.createService(bare);
      expect(await storage.getService(ws.id, bare.id)).toEqual(bare);
    });

    test("getService is scoped to the workspace: another workspace's service or an unknown id -> null", async () => {
      const { ws, srv } = await seed(storage);
      const other = await seed(storage);
      expect(await storage.getService(other.ws.id, srv.id)).toBeNull();
      expect(await storage.getService(ws.id, other.srv.id)).toBeNull();
      expect(await storage.getService(ws.id, newId('srv'))).toBeNull();
      expect(await storage.getService(ws.id, srv.id)).toEqual(srv);
    });

    test("listServices orders by order, then name, and lists only the workspace's services", async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const other = aWorkspace();
      await storage.createWorkspace(other);
      await storage.createService(aService(other, { name: 'Elsewhere', order: 0 }));
      for (const [order, name] of [
        [2, 'Alpha'],
        [1, 'Cut'],
        [0, 'Zeta'],
        [1, 'Beard'],
        [10, 'Aardvark'],
      ] as const) {
        await storage.createService(aService(ws, { order, name }));
      }
      const listed = await storage.listServices(ws.id, { activeOnly: false });
      expect(listed.map((service) => service.name)).toEqual(['Zeta', 'Beard', 'Cut', 'Alpha', 'Aardvark']);
      expect(listed.every((service) => service.workspaceId === ws.id)).toBe(true);
    });

    test('listServices with activeOnly leaves out inactive services; without it lists them with their providerIds', async () => {
      const { ws, srv, prv } = await seed(storage);
      const inactive = aService(ws, { name: 'Retired', active: false, order: 1, providerIds: [prv.id] });
      await storage.createService(inactive);
      expect(await storage.listServices(ws.id, { activeOnly: true })).toEqual([srv]);
      expect(await storage.listServices(ws.id, { activeOnly: false })).toEqual([srv, inactive]);
    });

    test('updateService applies the patch and replaces providerIds: the old links are gone on both sides', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const [p1, p2, p3] = [await addProvider(storage, ws), await addProvider(storage, ws), await addProvider(storage, ws)];
      const srv = aService(ws, { providerIds: [p1!.id, p2!.id] });
      await storage.createService(srv);
      const patch = {
        name: 'Long cut',
        duration: 45,
        priceMinor: 4500,
        active: false,
        bufferTime: 5,
        maxAdvance: null,
        depositMinor: 500,
        providerIds: [p3!.id],
        updatedAt: T0 + MINUTE,
      };
      const expected = { ...srv, ...patch };
      expect(await storage.updateService(ws.id, srv.id, patch)).toEqual(expected);
      expect(await storage.getService(ws.id, srv.id)).toEqual(expected);
      expect((await storage.getProvider(ws.id, p1!.id))?.serviceIds).toEqual([]);
      expect((await storage.getProvider(ws.id, p2!.id))?.serviceIds).toEqual([]);
      expect((await storage.getProvider(ws.id, p3!.id))?.serviceIds).toEqual([srv.id]);
    });

    test('updateService with providerIds alone replaces the links and keeps every other field', async () => {
      const { ws, srv, prv } = await seed(storage);
      const next = await addProvider(storage, ws);
      expect(await storage.updateService(ws.id, srv.id, { providerIds: [next.id] })).toEqual({ ...srv, providerIds: [next.id] });
      expect(await storage.getService(ws.id, srv.id)).toEqual({ ...srv, providerIds: [next.id] });
      expect((await storage.getProvider(ws.id, prv.id))?.serviceIds).toEqual([]);
    });

    test('updateService with providerIds [] removes every link', async () => {
      const { ws, srv, prv } = await seed(storage);
      expect(await storage.updateService(ws.id, srv.id, { providerIds: [], updatedAt: T0 + 1 })).toEqual({ ...srv, providerIds: [], updatedAt: T0 + 1 });
      expect((await storage.getProvider(ws.id, prv.id))?.serviceIds).toEqual([]);
    });

    test("updateService of another workspace's service or an unknown id -> null and nothing changes", async () => {
      const { ws, srv } = await seed(storage);
      const other = await seed(storage);
      expect(await storage.updateService(other.ws.id, srv.id, { name: 'Hijacked', providerIds: [other.prv.id] })).toBeNull();
      expect(await storage.updateService(ws.id, newId('srv'), { name: 'Ghost' })).toBeNull();
      expect(await storage.getService(ws.id, srv.id)).toEqual(srv);
      expect((await storage.getProvider(other.ws.id, other.prv.id))?.serviceIds).toEqual([other.srv.id]);
    });
  });

  describe('providers', () => {
    test("createProvider without hours stores hours null (the workspace's hours apply); getProvider returns it as written", async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const prv = aProvider(ws, { email: null, active: false });
      await storage.createProvider(prv);
      expect(await storage.getProvider(ws.id, prv.id)).toEqual(prv);
    });

    test('createProvider with its own hours and serviceIds returns them, and the services list the provider', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const s1 = aService(ws, { name: 'One' });
      const s2 = aService(ws, { name: 'Two', order: 1 });
      await storage.createService(s1);
      await storage.createService(s2);
      const prv = aProvider(ws, { hours: WEEKEND_HOURS, serviceIds: [s1.id, s2.id].sort() });
      await storage.createProvider(prv);
      expect(withSortedServices(await storage.getProvider(ws.id, prv.id))).toEqual(prv);
      expect((await storage.listServices(ws.id, { activeOnly: true })).map((service) => service.providerIds)).toEqual([[prv.id], [prv.id]]);
    });

    test("getProvider is scoped to the workspace: another workspace's provider or an unknown id -> null", async () => {
      const { ws, prv } = await seed(storage);
      const other = await seed(storage);
      expect(await storage.getProvider(other.ws.id, prv.id)).toBeNull();
      expect(await storage.getProvider(ws.id, newId('prv'))).toBeNull();
      expect((await storage.getProvider(ws.id, prv.id))?.id).toBe(prv.id);
    });

    test("listProviders orders by name and lists only the workspace's providers", async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const other = aWorkspace();
      await storage.createWorkspace(other);
      await addProvider(storage, other, { name: 'Aaron' });
      const made: ProviderRecord[] = [];
      for (const name of ['Mia', 'Ben', 'Zoe', 'Ada']) made.push(await addProvider(storage, ws, { name }));
      const listed = await storage.listProviders(ws.id);
      expect(listed.map((provider) => provider.name)).toEqual(['Ada', 'Ben', 'Mia', 'Zoe']);
      expect(sortedIds(listed)).toEqual(sortedIds(made));
    });

    test('updateProvider sets hours, replaces serviceIds and keeps the other fields; hours null clears them', async () => {
      const { ws, srv, prv } = await seed(storage);
      const next = aService(ws, { name: 'Beard trim' });
      await storage.createService(next);
      const patch = { name: 'Alexandra', email: 'alexandra@example.com', hours: WEEKEND_HOURS, serviceIds: [next.id], updatedAt: T0 + MINUTE };
      const expected = { ...prv, ...patch };
      expect(await storage.updateProvider(ws.id, prv.id, patch)).toEqual(expected);
      expect(await storage.getProvider(ws.id, prv.id)).toEqual(expected);
      expect((await storage.getService(ws.id, srv.id))?.providerIds).toEqual([]);
      expect((await storage.getService(ws.id, next.id))?.providerIds).toEqual([prv.id]);

      const cleared = { ...expected, hours: null, updatedAt: T0 + 2 * MINUTE };
      expect(await storage.updateProvider(ws.id, prv.id, { hours: null, updatedAt: T0 + 2 * MINUTE })).toEqual(cleared);
      expect(await storage.getProvider(ws.id, prv.id)).toEqual(cleared);
    });

    test('updateProvider with serviceIds alone replaces the links and keeps every other field', async () => {
      const { ws, srv, prv } = await seed(storage);
      const next = aService(ws, { name: 'Beard trim' });
      await storage.createService(next);
      expect(await storage.updateProvider(ws.id, prv.id, { serviceIds: [next.id] })).toEqual({ ...prv, serviceIds: [next.id] });
      expect((await storage.getService(ws.id, srv.id))?.providerIds).toEqual([]);
    });

    test("updateProvider of another workspace's provider or an unknown id -> null and nothing changes", async () => {
      const { ws, prv, srv } = await seed(storage);
      const other = await seed(storage);
      expect(await storage.updateProvider(other.ws.id, prv.id, { name: 'Hijacked', serviceIds: [] })).toBeNull();
      expect(await storage.updateProvider(ws.id, newId('prv'), { name: 'Ghost' })).toBeNull();
      expect(await storage.getProvider(ws.id, prv.id)).toEqual({ ...prv, serviceIds: [srv.id] });
    });
  });

  describe('custom fields', () => {
    test("createCustomField stores the record; listCustomFields returns the workspace's fields ordered by order, then key", async () => {
      const { ws, srv } = await seed(storage);
      const other = aWorkspace();
      await storage.createWorkspace(other);
      await storage.createCustomField(aCustomField(other, { key: 'aaa', order: 0 }));
      const select = aCustomField(ws, {
        key: 'colour',
        label: 'Colour',
        type: 'select',
        required: true,
        options: ['red', 'blue'],
        placeholder: 'Pick one',
        order: 2,
        serviceIds: [srv.id],
      });
      const zulu = aCustomField(ws, { key: 'zulu', order: 1 });
      const alpha = aCustomField(ws, { key: 'alpha', order: 1, type: 'checkbox' });
      const last = aCustomField(ws, { key: 'aaa_last', order: 5, type: 'number' });
      for (const field of [select, zulu, last, alpha]) await storage.createCustomField(field);
      expect(await storage.listCustomFields(ws.id)).toEqual([alpha, zulu, select, last]);
    });

    test('a key taken in the workspace -> UniqueViolation("custom field") and the list is unchanged', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const field = aCustomField(ws, { key: 'allergies' });
      await storage.createCustomField(field);
      const error = await caught(storage.createCustomField(aCustomField(ws, { key: 'allergies', label: 'Again' })));
      expect(error).toBeInstanceOf(UniqueViolation);
      expect((error as UniqueViolation).what).toBe('custom field');
      expect(await storage.listCustomFields(ws.id)).toEqual([field]);
    });

    test('the same key in another workspace is allowed', async () => {
      const ws = aWorkspace();
      const other = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWorkspace(other);
      const mine = aCustomField(ws, { key: 'allergies' });
      const theirs = aCustomField(other, { key: 'allergies' });
      await storage.createCustomField(mine);
      await storage.createCustomField(theirs);
      expect(await storage.listCustomFields(ws.id)).toEqual([mine]);
      expect(await storage.listCustomFields(other.id)).toEqual([theirs]);
    });

    test("updateCustomField applies the patch and returns the field; another workspace's field or an unknown id -> null", async () => {
      const { ws, srv } = await seed(storage);
      const other = aWorkspace();
      await storage.createWorkspace(other);
      const field = aCustomField(ws);
      await storage.createCustomField(field);
      const patch = {
        key: 'diet',
        label: 'Diet',
        type: 'select' as const,
        required: true,
        options: ['vegan', 'none'],
        placeholder: 'Choose',
        order: 7,
        serviceIds: [srv.id],
      };
      expect(await storage.updateCustomField(ws.id, field.id, patch)).toEqual({ ...field, ...patch });
      expect(await storage.listCustomFields(ws.id)).toEqual([{ ...field, ...patch }]);
      expect(await storage.updateCustomField(other.id, field.id, { label: 'Hijacked' })).toBeNull();
      expect(await storage.updateCustomField(ws.id, newId('cf'), { label: 'Ghost' })).toBeNull();
      expect(await storage.listCustomFields(ws.id)).toEqual([{ ...field, ...patch }]);
    });

    test('updateCustomField with an empty patch changes nothing and returns the field', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const field = aCustomField(ws);
      await storage.createCustomField(field);
      expect(await storage.updateCustomField(ws.id, field.id, {})).toEqual(field);
      expect(await storage.updateCustomField(ws.id, newId('cf'), {})).toBeNull();
      expect(await storage.listCustomFields(ws.id)).toEqual([field]);
    });

    test('updateCustomField to a key taken in the workspace -> UniqueViolation("custom field") and the field is unchanged', async () => {
      const ws = aWorkspace();
      await storage.createWorkspace(ws);
      const first = aCustomField(ws, { key: 'first', order: 0 });
      const second = aCustomField(ws, { key: 'second', order: 1 });
      await storage.createCustomField(first);
      await storage.createCustomField(second);
      const error = await caught(storage.updateCustomField(ws.id, second.id, { key: 'first', label: 'Clash' }));
      expect(error).toBeInstanceOf(UniqueViolation);
      expect((error as UniqueViolation).what).toBe('custom field');
      expect(await storage.listCustomFields(ws.id)).toEqual([first, second]);
    });

    test("deleteCustomField removes the field and returns true; again, or another workspace's field -> false", async () => {
      const ws = aWorkspace();
      const other = aWorkspace();
      await storage.createWorkspace(ws);
      await storage.createWorkspace(other);
      const field = aCustomField(ws, { order: 0 });
      const kept = aCustomField(ws, { order: 1 });
      const theirs = aCustomField(other);
      for (const each of [field, kept, theirs]) await storage.createCustomField(each);
      expect(await storage.deleteCustomField(other.id, field.id)).toBe(false);
      expect(await storage.deleteCustomField(ws.id, field.id)).toBe(true);
      expect(await storage.deleteCustomField(ws.id, field.id)).toBe(false);
      expect(await storage.deleteCustomField(ws.id, theirs.id)).toBe(false);
      expect(await storage.listCustomFields(ws.id)).toEqual([kept]);
      expect(await storage.listCustomFields(other.id)).toEqual([theirs]);
    });
  });
}
