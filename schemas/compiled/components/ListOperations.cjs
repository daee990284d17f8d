// Generated from schemas/components/ListOperations.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/ListOperations.schema.json","title":"ListOperations params","description":"Take items from a list, filter, sort or de-duplicate it. Outputs: result (a list), first and last (its first and last item, null when empty).","type":"object","properties":{"query":{"type":"string","description":"Reference to the list (cpn@var, sys.x or env.x; braces optional). Required."},"operations":{"type":["string","null"],"description":"nth | head | tail | filter | sort | drop_duplicates. topN (any case) means head; empty means nth (the default)."},"n":{"anyOf":[{"type":"number"},{"type":"string","pattern":"^\\s*[+-]?[0-9]+\\s*$"},{"type":"null"}],"description":"nth: the position, 1-based, negative from the end, 0 gives nothing. head/tail: how many items. Default 0."},"strict":{"type":["boolean","string","number","null"],"description":"nth/head/tail: fail when n is out of range instead of giving fewer items. A text counts as true when it is 1, true, yes or on."},"sort_method":{"type":["string","null"],"description":"sort: asc (default) or desc."},"sort_by":{"anyOf":[{"type":"string"},{"type":"array","items":{"type":"string"}},{"type":"null"}],"description":"sort, for object items: the keys to sort by, comma-separated (first key first). Empty: objects compare by their keys in order, then their values."},"filter":{"type":"object","properties":{"operator":{"type":"string","description":"=, ≠, contains, start with or end with (also ==, !=, equals, not equals, starts with, ends with)."},"value":{"description":"The text each item is compared with (items as text: null is empty, objects and lists as JSON)."}},"description":"filter: keep the items whose text matches {operator, value}."},"outputs":{"type":["object","array"],"description":"{result, first, last: {type}}: declared for the editor."}}};
const pattern4 = new RegExp("^\\s*[+-]?[0-9]+\\s*$", "u");

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/ListOperations.schema.json" */;
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
if(typeof data0 !== "string"){
const err0 = {instancePath:instancePath+"/query",schemaPath:"#/properties/query/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.query.type,parentSchema:schema31.properties.query,data:data0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.operations !== undefined){
let data1 = data.operations;
if((typeof data1 !== "string") && (data1 !== null)){
const err1 = {instancePath:instancePath+"/operations",schemaPath:"#/properties/operations/type",keyword:"type",params:{type: schema31.properties.operations.type},message:"must be string,null",schema:schema31.properties.operations.type,parentSchema:schema31.properties.operations,data:data1};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.n !== undefined){
let data2 = data.n;
const _errs6 = errors;
let valid1 = false;
const _errs7 = errors;
if(!(typeof data2 == "number")){
const err2 = {instancePath:instancePath+"/n",schemaPath:"#/properties/n/anyOf/0/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema31.properties.n.anyOf[0].type,parentSchema:schema31.properties.n.anyOf[0],data:data2};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
var _valid0 = _errs7 === errors;
valid1 = valid1 || _valid0;
const _errs9 = errors;
if(typeof data2 === "string"){
if(!pattern4.test(data2)){
const err3 = {instancePath:instancePath+"/n",schemaPath:"#/properties/n/anyOf/1/pattern",keyword:"pattern",params:{pattern: "^\\s*[+-]?[0-9]+\\s*$"},message:"must match pattern \""+"^\\s*[+-]?[0-9]+\\s*$"+"\"",schema:"^\\s*[+-]?[0-9]+\\s*$",parentSchema:schema31.properties.n.anyOf[1],data:data2};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath:instancePath+"/n",schemaPath:"#/properties/n/anyOf/1/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.n.anyOf[1].type,parentSchema:schema31.properties.n.anyOf[1],data:data2};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
var _valid0 = _errs9 === errors;
valid1 = valid1 || _valid0;
const _errs11 = errors;
if(data2 !== null){
const err5 = {instancePath:instancePath+"/n",schemaPath:"#/properties/n/anyOf/2/type",keyword:"type",params:{type: "null"},message:"must be null",schema:schema31.properties.n.anyOf[2].type,parentSchema:schema31.properties.n.anyOf[2],data:data2};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
var _valid0 = _errs11 === errors;
valid1 = valid1 || _valid0;
if(!valid1){
const err6 = {instancePath:instancePath+"/n",schemaPath:"#/properties/n/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema31.properties.n.anyOf,parentSchema:schema31.properties.n,data:data2};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
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
if(data.strict !== undefined){
let data3 = data.strict;
if((((typeof data3 !== "boolean") && (typeof data3 !== "string")) && (!(typeof data3 == "number"))) && (data3 !== null)){
const err7 = {instancePath:instancePath+"/strict",schemaPath:"#/properties/strict/type",keyword:"type",params:{type: schema31.properties.strict.type},message:"must be boolean,string,number,null",schema:schema31.properties.strict.type,parentSchema:schema31.properties.strict,data:data3};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.sort_method !== undefined){
let data4 = data.sort_method;
if((typeof data4 !== "string") && (data4 !== null)){
const err8 = {instancePath:instancePath+"/sort_method",schemaPath:"#/properties/sort_method/type",keyword:"type",params:{type: schema31.properties.sort_method.type},message:"must be string,null",schema:schema31.properties.sort_method.type,parentSchema:schema31.properties.sort_method,data:data4};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.sort_by !== undefined){
let data5 = data.sort_by;
const _errs18 = errors;
let valid2 = false;
const _errs19 = errors;
if(typeof data5 !== "string"){
const err9 = {instancePath:instancePath+"/sort_by",schemaPath:"#/properties/sort_by/anyOf/0/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.sort_by.anyOf[0].type,parentSchema:schema31.properties.sort_by.anyOf[0],data:data5};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
var _valid1 = _errs19 === errors;
valid2 = valid2 || _valid1;
const _errs21 = errors;
if(Array.isArray(data5)){
const len0 = data5.length;
for(let i0=0; i0<len0; i0++){
let data6 = data5[i0];
if(typeof data6 !== "string"){
const err10 = {instancePath:instancePath+"/sort_by/" + i0,schemaPath:"#/properties/sort_by/anyOf/1/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.sort_by.anyOf[1].items.type,parentSchema:schema31.properties.sort_by.anyOf[1].items,data:data6};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
else {
const err11 = {instancePath:instancePath+"/sort_by",schemaPath:"#/properties/sort_by/anyOf/1/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.sort_by.anyOf[1].type,parentSchema:schema31.properties.sort_by.anyOf[1],data:data5};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
var _valid1 = _errs21 === errors;
valid2 = valid2 || _valid1;
const _errs25 = errors;
if(data5 !== null){
const err12 = {instancePath:instancePath+"/sort_by",schemaPath:"#/properties/sort_by/anyOf/2/type",keyword:"type",params:{type: "null"},message:"must be null",schema:schema31.properties.sort_by.anyOf[2].type,parentSchema:schema31.properties.sort_by.anyOf[2],data:data5};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
var _valid1 = _errs25 === errors;
valid2 = valid2 || _valid1;
if(!valid2){
const err13 = {instancePath:instancePath+"/sort_by",schemaPath:"#/properties/sort_by/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema31.properties.sort_by.anyOf,parentSchema:schema31.properties.sort_by,data:data5};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
else {
errors = _errs18;
if(vErrors !== null){
if(_errs18){
vErrors.length = _errs18;
}
else {
vErrors = null;
}
}
}
}
if(data.filter !== undefined){
let data7 = data.filter;
if(data7 && typeof data7 == "object" && !Array.isArray(data7)){
if(data7.operator !== undefined){
let data8 = data7.operator;
if(typeof data8 !== "string"){
const err14 = {instancePath:instancePath+"/filter/operator",schemaPath:"#/properties/filter/properties/operator/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.filter.properties.operator.type,parentSchema:schema31.properties.filter.properties.operator,data:data8};
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
const err15 = {instancePath:instancePath+"/filter",schemaPath:"#/properties/filter/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.filter.type,parentSchema:schema31.properties.filter,data:data7};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(data.outputs !== undefined){
let data9 = data.outputs;
if(!data9 || typeof data9 != "object"){
const err16 = {instancePath:instancePath+"/outputs",schemaPath:"#/properties/outputs/type",keyword:"type",params:{type: schema31.properties.outputs.type},message:"must be object,array",schema:schema31.properties.outputs.type,parentSchema:schema31.properties.outputs,data:data9};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
}
else {
const err17 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"query":true,"operations":true,"n":true,"strict":true,"sort_method":true,"sort_by":true,"filter":true,"outputs":true},"dynamicProps":false,"dynamicItems":false};

