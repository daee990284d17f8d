// Generated from schemas/components/DataOperations.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/DataOperations.schema.json","title":"DataOperations params","description":"Reshape objects. Each reference of query gives an object, or a list whose object items are taken; the operation makes result from them (a list of objects; one object for combine).","type":"object","$defs":{"nameList":{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"object","properties":{"name":{"type":"string"}}}]}}},"properties":{"query":{"anyOf":[{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"object","properties":{"input":{"type":"string"}}}]}},{"type":"string"}],"description":"References to objects or lists of objects (cpn@var, sys.x or env.x). Nothing and empty texts are skipped."},"operations":{"type":["string","null"],"description":"select_keys | literal_eval | combine | filter_values | append_or_update | remove_keys | rename_keys (the older spelling with spaces is read too). Default literal_eval (RAGFlow's backend; the editor writes select_keys)."},"select_keys":{"$ref":"#/$defs/nameList","description":"select_keys: the keys to keep."},"filter_values":{"type":"array","items":{"type":"object","properties":{"key":{"type":"string"},"operator":{"type":"string","description":"=, ≠, contains, start with or end with."},"value":{"description":"Compared as text; references in it are replaced."}}},"description":"filter_values: keep the objects that match every rule; an object without the rule's key does not match. Rows without a key are skipped."},"updates":{"type":"array","items":{"type":"object","properties":{"key":{"type":"string"},"value":{"description":"A text is a template (references replaced); other values are set as they are."}}},"description":"append_or_update: keys to set on every object. Rows without a key are skipped."},"remove_keys":{"$ref":"#/$defs/nameList","description":"remove_keys: the keys to drop."},"rename_keys":{"type":"array","items":{"type":"object","properties":{"old_key":{"type":"string"},"new_key":{"type":"string"}}},"description":"rename_keys: {old_key, new_key} pairs, applied in order. Incomplete rows are skipped."},"outputs":{"type":["object","array"],"description":"{result: {type}}: declared for the editor."}}};
const schema32 = {"type":"array","items":{"anyOf":[{"type":"string"},{"type":"object","properties":{"name":{"type":"string"}}}]}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/DataOperations.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.query !== undefined){
let data0 = data.query;
const _errs2 = errors;
let valid1 = false;
const _errs3 = errors;
if(Array.isArray(data0)){
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
let data1 = data0[i0];
const _errs6 = errors;
let valid4 = false;
const _errs7 = errors;
if(typeof data1 !== "string"){
const err0 = {instancePath:instancePath+"/query/" + i0,schemaPath:"#/properties/query/anyOf/0/items/anyOf/0/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.query.anyOf[0].items.anyOf[0].type,parentSchema:schema31.properties.query.anyOf[0].items.anyOf[0],data:data1};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
var _valid1 = _errs7 === errors;
valid4 = valid4 || _valid1;
const _errs9 = errors;
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
if(data1.input !== undefined){
let data2 = data1.input;
if(typeof data2 !== "string"){
const err1 = {instancePath:instancePath+"/query/" + i0+"/input",schemaPath:"#/properties/query/anyOf/0/items/anyOf/1/properties/input/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.query.anyOf[0].items.anyOf[1].properties.input.type,parentSchema:schema31.properties.query.anyOf[0].items.anyOf[1].properties.input,data:data2};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
}
else {
const err2 = {instancePath:instancePath+"/query/" + i0,schemaPath:"#/properties/query/anyOf/0/items/anyOf/1/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.query.anyOf[0].items.anyOf[1].type,parentSchema:schema31.properties.query.anyOf[0].items.anyOf[1],data:data1};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
var _valid1 = _errs9 === errors;
valid4 = valid4 || _valid1;
if(_valid1){
var props0 = {};
props0.input = true;
}
if(!valid4){
const err3 = {instancePath:instancePath+"/query/" + i0,schemaPath:"#/properties/query/anyOf/0/items/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema31.properties.query.anyOf[0].items.anyOf,parentSchema:schema31.properties.query.anyOf[0].items,data:data1};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
else {
errors = _errs6;
if(vErrors !== null){
if(_errs6){
vErrors.length = _errs6;
}
else {
vErrors = null;
}
}
}
}
}
else {
const err4 = {instancePath:instancePath+"/query",schemaPath:"#/properties/query/anyOf/0/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.query.anyOf[0].type,parentSchema:schema31.properties.query.anyOf[0],data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
var _valid0 = _errs3 === errors;
valid1 = valid1 || _valid0;
const _errs13 = errors;
if(typeof data0 !== "string"){
const err5 = {instancePath:instancePath+"/query",schemaPath:"#/properties/query/anyOf/1/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.query.anyOf[1].type,parentSchema:schema31.properties.query.anyOf[1],data:data0};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
var _valid0 = _errs13 === errors;
valid1 = valid1 || _valid0;
if(!valid1){
const err6 = {instancePath:instancePath+"/query",schemaPath:"#/properties/query/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema31.properties.query.anyOf,parentSchema:schema31.properties.query,data:data0};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
else {
errors = _errs2;
if(vErrors !== null){
if(_errs2){
vErrors.length = _errs2;
}
else {
vErrors = null;
}
}
}
}
if(data.operations !== undefined){
let data3 = data.operations;
if((typeof data3 !== "string") && (data3 !== null)){
const err7 = {instancePath:instancePath+"/operations",schemaPath:"#/properties/operations/type",keyword:"type",params:{type: schema31.properties.operations.type},message:"must be string,null",schema:schema31.properties.operations.type,parentSchema:schema31.properties.operations,data:data3};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.select_keys !== undefined){
let data4 = data.select_keys;
if(Array.isArray(data4)){
const len1 = data4.length;
for(let i1=0; i1<len1; i1++){
let data5 = data4[i1];
const _errs21 = errors;
let valid9 = false;
const _errs22 = errors;
if(typeof data5 !== "string"){
const err8 = {instancePath:instancePath+"/select_keys/" + i1,schemaPath:"#/$defs/nameList/items/anyOf/0/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.items.anyOf[0].type,parentSchema:schema32.items.anyOf[0],data:data5};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
var _valid2 = _errs22 === errors;
valid9 = valid9 || _valid2;
const _errs24 = errors;
if(data5 && typeof data5 == "object" && !Array.isArray(data5)){
if(data5.name !== undefined){
let data6 = data5.name;
if(typeof data6 !== "string"){
const err9 = {instancePath:instancePath+"/select_keys/" + i1+"/name",schemaPath:"#/$defs/nameList/items/anyOf/1/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.items.anyOf[1].properties.name.type,parentSchema:schema32.items.anyOf[1].properties.name,data:data6};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
}
else {
const err10 = {instancePath:instancePath+"/select_keys/" + i1,schemaPath:"#/$defs/nameList/items/anyOf/1/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.items.anyOf[1].type,parentSchema:schema32.items.anyOf[1],data:data5};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
var _valid2 = _errs24 === errors;
valid9 = valid9 || _valid2;
if(_valid2){
var props1 = {};
props1.name = true;
}
if(!valid9){
const err11 = {instancePath:instancePath+"/select_keys/" + i1,schemaPath:"#/$defs/nameList/items/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema32.items.anyOf,parentSchema:schema32.items,data:data5};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
else {
errors = _errs21;
if(vErrors !== null){
if(_errs21){
vErrors.length = _errs21;
}
else {
vErrors = null;
}
}
}
}
}
else {
const err12 = {instancePath:instancePath+"/select_keys",schemaPath:"#/$defs/nameList/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.type,parentSchema:schema32,data:data4};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.filter_values !== undefined){
let data7 = data.filter_values;
if(Array.isArray(data7)){
const len2 = data7.length;
for(let i2=0; i2<len2; i2++){
let data8 = data7[i2];
if(data8 && typeof data8 == "object" && !Array.isArray(data8)){
if(data8.key !== undefined){
let data9 = data8.key;
if(typeof data9 !== "string"){
const err13 = {instancePath:instancePath+"/filter_values/" + i2+"/key",schemaPath:"#/properties/filter_values/items/properties/key/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.filter_values.items.properties.key.type,parentSchema:schema31.properties.filter_values.items.properties.key,data:data9};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data8.operator !== undefined){
let data10 = data8.operator;
if(typeof data10 !== "string"){
const err14 = {instancePath:instancePath+"/filter_values/" + i2+"/operator",schemaPath:"#/properties/filter_values/items/properties/operator/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.filter_values.items.properties.operator.type,parentSchema:schema31.properties.filter_values.items.properties.operator,data:data10};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
}
else {
const err15 = {instancePath:instancePath+"/filter_values/" + i2,schemaPath:"#/properties/filter_values/items/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.filter_values.items.type,parentSchema:schema31.properties.filter_values.items,data:data8};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
}
else {
const err16 = {instancePath:instancePath+"/filter_values",schemaPath:"#/properties/filter_values/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.filter_values.type,parentSchema:schema31.properties.filter_values,data:data7};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data.updates !== undefined){
let data11 = data.updates;
if(Array.isArray(data11)){
const len3 = data11.length;
for(let i3=0; i3<len3; i3++){
let data12 = data11[i3];
if(data12 && typeof data12 == "object" && !Array.isArray(data12)){
if(data12.key !== undefined){
let data13 = data12.key;
if(typeof data13 !== "string"){
const err17 = {instancePath:instancePath+"/updates/" + i3+"/key",schemaPath:"#/properties/updates/items/properties/key/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.updates.items.properties.key.type,parentSchema:schema31.properties.updates.items.properties.key,data:data13};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
}
else {
const err18 = {instancePath:instancePath+"/updates/" + i3,schemaPath:"#/properties/updates/items/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.updates.items.type,parentSchema:schema31.properties.updates.items,data:data12};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
}
else {
const err19 = {instancePath:instancePath+"/updates",schemaPath:"#/properties/updates/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.updates.type,parentSchema:schema31.properties.updates,data:data11};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data.remove_keys !== undefined){
let data14 = data.remove_keys;
if(Array.isArray(data14)){
const len4 = data14.length;
for(let i4=0; i4<len4; i4++){
let data15 = data14[i4];
const _errs46 = errors;
let valid20 = false;
const _errs47 = errors;
if(typeof data15 !== "string"){
const err20 = {instancePath:instancePath+"/remove_keys/" + i4,schemaPath:"#/$defs/nameList/items/anyOf/0/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.items.anyOf[0].type,parentSchema:schema32.items.anyOf[0],data:data15};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
var _valid3 = _errs47 === errors;
valid20 = valid20 || _valid3;
const _errs49 = errors;
if(data15 && typeof data15 == "object" && !Array.isArray(data15)){
if(data15.name !== undefined){
let data16 = data15.name;
if(typeof data16 !== "string"){
const err21 = {instancePath:instancePath+"/remove_keys/" + i4+"/name",schemaPath:"#/$defs/nameList/items/anyOf/1/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.items.anyOf[1].properties.name.type,parentSchema:schema32.items.anyOf[1].properties.name,data:data16};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
}
else {
const err22 = {instancePath:instancePath+"/remove_keys/" + i4,schemaPath:"#/$defs/nameList/items/anyOf/1/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.items.anyOf[1].type,parentSchema:schema32.items.anyOf[1],data:data15};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
var _valid3 = _errs49 === errors;
valid20 = valid20 || _valid3;
if(_valid3){
var props2 = {};
props2.name = true;
}
if(!valid20){
const err23 = {instancePath:instancePath+"/remove_keys/" + i4,schemaPath:"#/$defs/nameList/items/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema32.items.anyOf,parentSchema:schema32.items,data:data15};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
else {
errors = _errs46;
if(vErrors !== null){
if(_errs46){
vErrors.length = _errs46;
}
else {
vErrors = null;
}
}
}
}
}
else {
const err24 = {instancePath:instancePath+"/remove_keys",schemaPath:"#/$defs/nameList/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.type,parentSchema:schema32,data:data14};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
if(data.rename_keys !== undefined){
let data17 = data.rename_keys;
if(Array.isArray(data17)){
const len5 = data17.length;
for(let i5=0; i5<len5; i5++){
let data18 = data17[i5];
if(data18 && typeof data18 == "object" && !Array.isArray(data18)){
if(data18.old_key !== undefined){
let data19 = data18.old_key;
if(typeof data19 !== "string"){
const err25 = {instancePath:instancePath+"/rename_keys/" + i5+"/old_key",schemaPath:"#/properties/rename_keys/items/properties/old_key/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.rename_keys.items.properties.old_key.type,parentSchema:schema31.properties.rename_keys.items.properties.old_key,data:data19};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
if(data18.new_key !== undefined){
let data20 = data18.new_key;
if(typeof data20 !== "string"){
const err26 = {instancePath:instancePath+"/rename_keys/" + i5+"/new_key",schemaPath:"#/properties/rename_keys/items/properties/new_key/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.rename_keys.items.properties.new_key.type,parentSchema:schema31.properties.rename_keys.items.properties.new_key,data:data20};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
}
else {
const err27 = {instancePath:instancePath+"/rename_keys/" + i5,schemaPath:"#/properties/rename_keys/items/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.rename_keys.items.type,parentSchema:schema31.properties.rename_keys.items,data:data18};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
}
else {
const err28 = {instancePath:instancePath+"/rename_keys",schemaPath:"#/properties/rename_keys/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.rename_keys.type,parentSchema:schema31.properties.rename_keys,data:data17};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
if(data.outputs !== undefined){
let data21 = data.outputs;
if(!data21 || typeof data21 != "object"){
const err29 = {instancePath:instancePath+"/outputs",schemaPath:"#/properties/outputs/type",keyword:"type",params:{type: schema31.properties.outputs.type},message:"must be object,array",schema:schema31.properties.outputs.type,parentSchema:schema31.properties.outputs,data:data21};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
}
else {
const err30 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"query":true,"operations":true,"select_keys":true,"filter_values":true,"updates":true,"remove_keys":true,"rename_keys":true,"outputs":true},"dynamicProps":false,"dynamicItems":false};

